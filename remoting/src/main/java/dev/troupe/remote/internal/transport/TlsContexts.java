package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.remote.internal.config.TlsSettings;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.UnrecoverableKeyException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS side of one system's transport: a server context for accepted connections and a client
 * context for outbound ones, both built once, when the system is created, from {@code
 * troupe.remote.tls}. Building them opens and checks the key store and the trust store, so a
 * missing file, a wrong password or a key store without a private key fails {@code
 * ActorSystem.create} with a {@link ConfigurationException} naming the key, before any network
 * thread exists, rather than surfacing later as refused connections.
 *
 * <p>What the contexts enforce: TLS 1.3 only (no fallback to older versions), Netty's JDK provider
 * (no native library to ship), and mutual authentication: the server context requires a client
 * certificate, so every connection, whichever side opened it, is between two holders of keys whose
 * certificates chain to the other side's trust store. That chain is the peer's identity. Host names
 * are not part of it by default, since nodes are usually named by IP address or by names that the
 * certificates of a private CA need not carry; {@code hostname-verification = on} adds the HTTPS
 * rules (the certificate's subject alternative names must cover the host an outbound connection
 * dialled). An accepted connection is checked against a name once Troupe's handshake tells who
 * it claims to be: with {@code verify-peer-origin = on} (the default) its certificate must name
 * the host of the origin address it claims ({@link PeerCertificates}, checked by {@link
 * InboundHandshakeHandler}), so a trusted node cannot speak for a node on another host.
 */
public final class TlsContexts {
  /** The only protocol offered or accepted. */
  static final String PROTOCOL = "TLSv1.3";

  private final SslContext server;
  private final SslContext client;
  private final long handshakeTimeoutMillis;

  private TlsContexts(SslContext server, SslContext client, long handshakeTimeoutMillis) {
    this.server = server;
    this.client = client;
    this.handshakeTimeoutMillis = handshakeTimeoutMillis;
  }

  /**
   * Opens the stores named by {@code s} and builds both contexts.
   *
   * @param s enabled TLS settings
   * @param handshakeTimeout how long a TLS handshake may take ({@code advanced.handshake-timeout})
   * @throws ConfigurationException naming the key of the first problem found
   */
  static TlsContexts create(TlsSettings s, Duration handshakeTimeout) {
    KeyStore keys = open("key-store", s.keyStore(), "key-store-password", s.keyStorePassword());
    requirePrivateKey(keys, s.keyStore());
    KeyStore trusted = open("trust-store", s.trustStore(), "trust-store-password", s.trustStorePassword());
    requireCertificates(trusted, s);

    boolean ownKeyPassword = !s.keyPassword().isEmpty();
    KeyManagerFactory kmf;
    try {
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, (ownKeyPassword ? s.keyPassword() : s.keyStorePassword()).toCharArray());
    } catch (UnrecoverableKeyException e) {
      throw TlsSettings.bad(
          ownKeyPassword ? "key-password" : "key-store-password",
          "cannot read the private key in " + where(s.keyStore()) + " with this password"
              + (ownKeyPassword ? "" : " (set key-password if the key has a password of its own)"),
          e);
    } catch (GeneralSecurityException e) {
      throw TlsSettings.bad("key-store", "cannot use the keys in " + where(s.keyStore()) + ": " + e, e);
    }
    TrustManagerFactory tmf;
    try {
      tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
    } catch (GeneralSecurityException e) {
      throw TlsSettings.bad("trust-store", "cannot use the certificates in " + where(s.trustStore()) + ": " + e, e);
    }
    try {
      SslContext server =
          SslContextBuilder.forServer(kmf)
              .trustManager(tmf)
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOL)
              .clientAuth(ClientAuth.REQUIRE)
              .build();
      SslContext client =
          SslContextBuilder.forClient()
              .keyManager(kmf)
              .trustManager(tmf)
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOL)
              // Netty's client default is HTTPS; a null turns the check off
              .endpointIdentificationAlgorithm(s.hostnameVerification() ? "HTTPS" : null)
              .build();
      return new TlsContexts(server, client, handshakeTimeout.toMillis());
    } catch (SSLException | RuntimeException e) {
      throw new ConfigurationException(
          "invalid configuration value at '" + TlsSettings.PATH + "': cannot set up " + PROTOCOL + " with these stores: " + e, e);
    }
  }

  /** The first handler of an accepted connection: the server side of a handshake that requires a client certificate. */
  SslHandler forAccepted(ByteBufAllocator alloc) {
    return withTimeout(server.newHandler(alloc));
  }

  /** The first handler of an outbound connection to {@code host:port} (the host as dialled, for hostname verification). */
  SslHandler forOutbound(ByteBufAllocator alloc, String host, int port) {
    return withTimeout(client.newHandler(alloc, host, port));
  }

  private SslHandler withTimeout(SslHandler h) {
    h.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    return h;
  }

  // ------------------------------------------------------------------ the stores

  private static String where(String file) {
    return Path.of(file).toAbsolutePath().toString();
  }

  /**
   * Reads a PKCS12 or JKS file: {@link KeyStore#getInstance(File, char[])} recognises the format,
   * so the configuration needs no store type.
   */
  private static KeyStore open(String key, String file, String passwordKey, String password) {
    Path p;
    try {
      p = Path.of(file).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw TlsSettings.bad(key, "not a file name: '" + file + "'", e);
    }
    if (!Files.isRegularFile(p)) {
      throw TlsSettings.bad(key, "the file " + p + (Files.exists(p) ? " is not a regular file" : " does not exist"));
    }
    if (!Files.isReadable(p)) {
      throw TlsSettings.bad(key, "the file " + p + " cannot be read (permissions?)");
    }
    try {
      return KeyStore.getInstance(p.toFile(), password.toCharArray());
    } catch (KeyStoreException e) {
      throw TlsSettings.bad(key, p + " is not a PKCS12 or JKS store", e);
    } catch (IOException e) {
      if (e.getCause() instanceof UnrecoverableKeyException) {
        throw TlsSettings.bad(passwordKey, "wrong password for " + p, e);
      }
      throw TlsSettings.bad(key, "cannot read " + p + ": " + e.getMessage(), e);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw TlsSettings.bad(key, "cannot read " + p + ": " + e, e);
    }
  }

  private static void requirePrivateKey(KeyStore keys, String file) {
    try {
      for (String alias : Collections.list(keys.aliases())) {
        if (keys.entryInstanceOf(alias, KeyStore.PrivateKeyEntry.class)) {
          return;
        }
      }
    } catch (KeyStoreException e) {
      throw TlsSettings.bad("key-store", "cannot list " + where(file) + ": " + e, e);
    }
    throw TlsSettings.bad(
        "key-store",
        where(file) + " holds no private key (is it a trust store?); it must hold this node's private key and certificate");
  }

  private static void requireCertificates(KeyStore trusted, TlsSettings s) {
    try {
      List<String> aliases = Collections.list(trusted.aliases());
      for (String alias : aliases) {
        if (trusted.getCertificate(alias) != null) {
          return;
        }
      }
    } catch (KeyStoreException e) {
      throw TlsSettings.bad("trust-store", "cannot list " + where(s.trustStore()) + ": " + e, e);
    }
    throw TlsSettings.bad(
        "trust-store",
        where(s.trustStore()) + " holds no certificates, so no peer could be trusted"
            + (s.trustStorePassword().isEmpty() ? " (a PKCS12 store's certificates are read only with its password: set trust-store-password)" : ""));
  }
}
