package dev.troupe.samples.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;

/** What the remote echo server and client share: their configuration and the echo's path. */
final class RemoteEcho {
  /** The echo actor's name under {@code /user}. */
  static final String ECHO_NAME = "echo";

  private RemoteEcho() {}

  /**
   * The {@code remote-echo} section of the samples' {@code application.conf} (remoting on) over the
   * whole file (the message bindings) and Troupe's defaults, with the given canonical address.
   *
   * @param host the host other nodes reach this one at
   * @param port the port to listen on; 0 = any free port
   * @return the node's configuration
   */
  static Config node(String host, int port) {
    ConfigFactory.invalidateCaches();
    Config app = ConfigFactory.load();
    return app.getConfig("remote-echo")
        .withValue("troupe.remote.canonical.hostname", ConfigValueFactory.fromAnyRef(host))
        .withValue("troupe.remote.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withFallback(app);
  }

  /**
   * The server's configuration: {@link #node} with the {@code remote-echo-server} section over it,
   * which lets clients deploy echo actors onto the server.
   *
   * @param host the host other nodes reach this one at
   * @param port the port to listen on; 0 = any free port
   * @return the server's configuration
   */
  static Config server(String host, int port) {
    return ConfigFactory.load().getConfig("remote-echo-server").withFallback(node(host, port));
  }
}
