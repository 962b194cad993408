package dev.troupe.cluster.internal.core;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context a membership engine gets when remoting runs TLS ({@code troupe.remote.tls.enabled
 * = on}): this node's key from {@code key-store} and the certificates of {@code trust-store}, TLS
 * 1.3, so that the engine's own connections authenticate both sides by the same certificates as
 * remoting's. Remoting has opened and checked both stores already when the cluster provider is made
 * (it fails {@code ActorSystem.create} naming the key of any problem); what fails here is still
 * named by its key.
 */
final class RemoteTls {
  private static final String PATH = "troupe.remote.tls";
  private static final String PROTOCOL = "TLSv1.3";

  private RemoteTls() {}

  /** @return the context, or empty when remoting runs without TLS */
  static Optional<SSLContext> from(Config root) {
    Config t = root.getConfig(PATH);
    if (!ConfigReader.bool(t, PATH, "enabled")) {
      return Optional.empty();
    }
    String storePassword = ConfigReader.string(t, PATH, "key-store-password");
    String keyPassword = ConfigReader.string(t, PATH, "key-password");
    KeyStore keys = open(t, "key-store", storePassword);
    KeyStore trusted = open(t, "trust-store", ConfigReader.string(t, PATH, "trust-store-password"));
    try {
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, (keyPassword.isEmpty() ? storePassword : keyPassword).toCharArray());
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      SSLContext context = SSLContext.getInstance(PROTOCOL);
      context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return Optional.of(context);
    } catch (GeneralSecurityException e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + PATH + "': cannot set up " + PROTOCOL
              + " for the cluster's membership engine with these stores: " + e, e);
    }
  }

  private static KeyStore open(Config t, String key, String password) {
    String file = ConfigReader.string(t, PATH, key).trim();
    try {
      return KeyStore.getInstance(Path.of(file).toFile(), password.toCharArray());
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + PATH + "." + key + "': cannot read '" + file + "': " + e, e);
    }
  }
}
