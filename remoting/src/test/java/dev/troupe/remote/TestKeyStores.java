package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Key stores for the TLS tests, generated into a directory the test class owns (a JUnit
 * {@code @TempDir}): four identities, each a self-signed certificate made by the JDK's {@code
 * keytool} (the same tool the README tells users to run), and one trust store that trusts three of
 * them. A node's certificate must name the host it claims to be on (subject alternative names,
 * {@code troupe.remote.tls.verify-peer-origin}), so those of the nodes on 127.0.0.1 do.
 *
 * <ul>
 *   <li>{@link #nodeA}: PKCS12, an EC key, subject {@code CN=node-a}, alternative name {@code
 *       IP:127.0.0.1};
 *   <li>{@link #nodeB}: JKS, an RSA key with a password of its own ({@link #NODE_B_KEY_PASSWORD}),
 *       subject {@code CN=node-b}, alternative name {@code IP:127.0.0.1};
 *   <li>{@link #elsewhere}: PKCS12, an EC key, {@code CN=elsewhere}, trusted, but naming another
 *       host only ({@code DNS:elsewhere.invalid, DNS:*.nodes.invalid, IP:127.0.0.2}): a trusted node that must not be
 *       able to speak for 127.0.0.1, nor pass hostname verification there;
 *   <li>{@link #rogue}: PKCS12, an EC key, {@code CN=rogue}, {@code IP:127.0.0.1}, trusted by
 *       nobody;
 *   <li>{@link #trust}: PKCS12, the certificates of node-a, node-b and elsewhere.
 * </ul>
 *
 * The four keytool runs go in parallel (each costs about half a second of a JVM start); the trust
 * store is assembled with {@link KeyStore}, as {@code keytool -exportcert} and {@code -importcert}
 * would, without four more JVM starts. Generate once per test class.
 */
public final class TestKeyStores {
  /** The password of every store here (and of every key but node-b's). */
  public static final String PASSWORD = "changeit";
  /** The password of node-b's private key, unlike its store's. */
  public static final String NODE_B_KEY_PASSWORD = "node-b-key";

  public final Path nodeA;
  public final Path nodeB;
  public final Path elsewhere;
  public final Path rogue;
  public final Path trust;

  private TestKeyStores(Path dir) {
    nodeA = dir.resolve("node-a.p12");
    nodeB = dir.resolve("node-b.jks");
    elsewhere = dir.resolve("elsewhere.p12");
    rogue = dir.resolve("rogue.p12");
    trust = dir.resolve("trust.p12");
  }

  /** Generates the stores into {@code dir}. */
  public static TestKeyStores generate(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
    TestKeyStores s = new TestKeyStores(dir);
    List<Process> runs = new ArrayList<>();
    runs.add(keytool(dir, "-genkeypair", "-alias", "node-a", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=node-a", "-ext", "san=ip:127.0.0.1", "-validity", "30", "-storetype", "PKCS12", "-keystore", s.nodeA.toString(),
        "-storepass", PASSWORD));
    runs.add(keytool(dir, "-genkeypair", "-alias", "node-b", "-keyalg", "RSA", "-keysize", "2048",
        "-dname", "CN=node-b", "-ext", "san=ip:127.0.0.1", "-validity", "30", "-storetype", "JKS",
        "-keystore", s.nodeB.toString(), "-storepass", PASSWORD, "-keypass", NODE_B_KEY_PASSWORD));
    runs.add(keytool(dir, "-genkeypair", "-alias", "elsewhere", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=elsewhere", "-ext", "san=dns:elsewhere.invalid,dns:*.nodes.invalid,ip:127.0.0.2", "-validity", "30",
        "-storetype", "PKCS12", "-keystore", s.elsewhere.toString(), "-storepass", PASSWORD));
    runs.add(keytool(dir, "-genkeypair", "-alias", "rogue", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=rogue", "-ext", "san=ip:127.0.0.1", "-validity", "30", "-storetype", "PKCS12",
        "-keystore", s.rogue.toString(), "-storepass", PASSWORD));
    for (Process p : runs) {
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished in a minute: " + p.info());
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertEquals(0, p.exitValue(), "keytool failed: " + out);
    }
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("node-a", load(s.nodeA).getCertificate("node-a"));
    trust.setCertificateEntry("node-b", load(s.nodeB).getCertificate("node-b"));
    trust.setCertificateEntry("elsewhere", load(s.elsewhere).getCertificate("elsewhere"));
    try (OutputStream out = Files.newOutputStream(s.trust)) {
      trust.store(out, PASSWORD.toCharArray());
    }
    return s;
  }

  private static Process keytool(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
  }

  /** Opens a store of this set (the format is recognised). */
  public static KeyStore load(Path store) throws IOException, GeneralSecurityException {
    return KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
  }

  /**
   * {@code troupe.remote.tls} on, with {@code keyStore} as the node's identity and {@link #trust}
   * as its trust store.
   */
  public String tls(Path keyStore) {
    return "troupe.remote.tls {\n"
        + "  enabled = on\n"
        + "  key-store = \"" + hocon(keyStore) + "\"\n"
        + "  key-store-password = \"" + PASSWORD + "\"\n"
        + "  key-password = \"" + (keyStore.equals(nodeB) ? NODE_B_KEY_PASSWORD : "") + "\"\n"
        + "  trust-store = \"" + hocon(trust) + "\"\n"
        + "  trust-store-password = \"" + PASSWORD + "\"\n"
        + "}\n";
  }

  private static String hocon(Path p) {
    return p.toAbsolutePath().toString().replace('\\', '/');
  }

  /**
   * A JDK TLS context for a hand-made client, with {@code keyStore}'s key (none when null) and
   * {@link #trust}.
   */
  public SSLContext clientContext(Path keyStore) throws IOException, GeneralSecurityException {
    KeyManagerFactory kmf = null;
    if (keyStore != null) {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(load(keyStore), (keyStore.equals(nodeB) ? NODE_B_KEY_PASSWORD : PASSWORD).toCharArray());
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(load(trust));
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf == null ? new KeyManager[0] : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }
}
