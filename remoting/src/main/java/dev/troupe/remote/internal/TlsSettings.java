package dev.troupe.remote.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.runtime.spi.ConfigReader;

/**
 * {@code troupe.remote.tls.*}, read with the rest of {@link RemoteSettings}. Only the values are
 * checked here (a key store and a trust store are named when TLS is on); the files are opened by
 * {@link TlsContexts}, which names the key of whatever it finds wrong in them.
 *
 * <p>Kept apart from {@link RemoteSettings} because it holds passwords: {@link #toString()} leaves
 * them out, so a settings object in a log line or a debugger never shows one.
 *
 * @param enabled whether every connection, accepted or outbound, runs TLS 1.3 with both sides
 *     authenticated by certificate
 * @param keyStore the file with this node's private key and certificate chain ("" when off)
 * @param keyStorePassword the key store's password
 * @param keyPassword the private key's password; "" = the key store's
 * @param trustStore the file with the certificates that peers' chains must lead to ("" when off)
 * @param trustStorePassword the trust store's password
 * @param hostnameVerification whether an outbound connection also checks that the peer's
 *     certificate names the host it was dialled at
 * @param verifyPeerOrigin whether an accepted connection's handshake is refused unless the peer's
 *     certificate names the host of the origin address it claims
 */
record TlsSettings(
    boolean enabled,
    String keyStore,
    String keyStorePassword,
    String keyPassword,
    String trustStore,
    String trustStorePassword,
    boolean hostnameVerification,
    boolean verifyPeerOrigin) {

  static final String PATH = RemoteSettings.ROOT + ".tls";

  static TlsSettings from(Config remote) {
    Config t;
    try {
      t = remote.getConfig("tls");
    } catch (com.typesafe.config.ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + PATH + "': " + e.getMessage(), e);
    }
    boolean enabled = ConfigReader.bool(t, PATH, "enabled");
    String keyStore = ConfigReader.string(t, PATH, "key-store").trim();
    String keyStorePassword = ConfigReader.string(t, PATH, "key-store-password");
    String keyPassword = ConfigReader.string(t, PATH, "key-password");
    String trustStore = ConfigReader.string(t, PATH, "trust-store").trim();
    String trustStorePassword = ConfigReader.string(t, PATH, "trust-store-password");
    boolean hostnameVerification = ConfigReader.bool(t, PATH, "hostname-verification");
    boolean verifyPeerOrigin = ConfigReader.bool(t, PATH, "verify-peer-origin");
    if (enabled) {
      if (keyStore.isEmpty()) {
        throw bad("key-store", "must name this node's key store (a PKCS12 or JKS file with its private key and certificate) when troupe.remote.tls.enabled = on");
      }
      if (trustStore.isEmpty()) {
        throw bad("trust-store", "must name the trust store (a PKCS12 or JKS file with the certificates peers are checked against) when troupe.remote.tls.enabled = on");
      }
    }
    return new TlsSettings(
        enabled,
        keyStore,
        keyStorePassword,
        keyPassword,
        trustStore,
        trustStorePassword,
        hostnameVerification,
        verifyPeerOrigin);
  }

  /** The full key of {@code key} in this section, for error messages. */
  static String key(String key) {
    return PATH + "." + key;
  }

  static ConfigurationException bad(String key, String why) {
    return bad(key, why, null);
  }

  static ConfigurationException bad(String key, String why, Throwable cause) {
    return new ConfigurationException("invalid configuration value at '" + key(key) + "': " + why, cause);
  }

  @Override
  public String toString() {
    return "TlsSettings[enabled=" + enabled + ", keyStore=" + keyStore + ", trustStore=" + trustStore
        + ", hostnameVerification=" + hostnameVerification + ", verifyPeerOrigin=" + verifyPeerOrigin
        + ", passwords not shown]";
  }
}
