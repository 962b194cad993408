package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS context the membership engine gets from {@code troupe.remote.tls}. */
class RemoteTlsTest {
  @TempDir Path dir;

  private static Config config(String hocon) {
    return ConfigFactory.parseString(hocon).withFallback(ConfigFactory.defaultReference()).resolve();
  }

  @Test
  void noTlsNoContext() {
    assertEquals(Optional.empty(), RemoteTls.from(config("")));
  }

  @Test
  void theStoresOfRemotingMakeTheContext() throws Exception {
    Path store = dir.resolve("node.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", "node",
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=node", "-validity", "30", "-storetype",
                "PKCS12", "-keystore", store.toString(), "-storepass", "changeit")
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished within a minute");
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(0, p.exitValue(), "keytool: " + out);
    String tls =
        "troupe.remote.tls { enabled = on, key-store = \"" + store + "\", key-store-password = changeit, trust-store = \""
            + store + "\", trust-store-password = changeit }";
    SSLContext context = RemoteTls.from(config(tls)).orElseThrow();
    assertEquals("TLSv1.3", context.getProtocol());

    ConfigurationException missing =
        assertThrows(
            ConfigurationException.class,
            () -> RemoteTls.from(config(tls + "\ntroupe.remote.tls.trust-store = \"" + dir.resolve("none.p12") + "\"")));
    assertTrue(missing.getMessage().contains("'troupe.remote.tls.trust-store'"), missing.getMessage());
  }
}
