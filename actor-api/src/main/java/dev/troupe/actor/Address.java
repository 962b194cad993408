package dev.troupe.actor;

import java.util.Objects;
import java.util.Optional;

/**
 * Where an actor system lives: {@code troupe://system} for a local system, {@code
 * troupe://system@host:port} for one reachable over the network.
 */
public final class Address {
  /** The protocol of every Troupe address. */
  public static final String PROTOCOL = "troupe";

  private final String protocol;
  private final String system;
  private final String host; // null when local
  private final int port; // -1 when local
  private final String text;

  private Address(String protocol, String system, String host, int port) {
    this.protocol = protocol;
    this.system = system;
    this.host = host;
    this.port = port;
    this.text =
        protocol + "://" + system + (host == null ? "" : "@" + hostText(host) + ":" + port);
  }

  private static String hostText(String host) {
    return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
  }

  /**
   * The address of a local system.
   *
   * @param system the system name
   * @return {@code troupe://system}
   */
  public static Address local(String system) {
    return new Address(PROTOCOL, validSystem(system, system), null, -1);
  }

  /**
   * The address of a system reachable at {@code host:port}.
   *
   * @param system the system name
   * @param host host name or IP literal
   * @param port TCP port, 0..65535
   * @return {@code troupe://system@host:port}
   */
  public static Address remote(String system, String host, int port) {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("address host must not be empty");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("address port out of range 0..65535: " + port);
    }
    return new Address(PROTOCOL, validSystem(system, system), host, port);
  }

  /**
   * Parses {@code troupe://system} or {@code troupe://system@host:port} (IPv6 hosts in brackets).
   *
   * @param text the address
   * @return the parsed address
   * @throws IllegalArgumentException naming the text and what is wrong with it
   */
  public static Address parse(String text) {
    Objects.requireNonNull(text, "address");
    int sep = text.indexOf("://");
    if (sep <= 0) {
      throw malformed(text, "expected protocol://system[@host:port]");
    }
    String protocol = text.substring(0, sep);
    if (!PROTOCOL.equals(protocol)) {
      throw malformed(text, "unknown protocol '" + protocol + "', expected '" + PROTOCOL + "'");
    }
    String rest = text.substring(sep + 3);
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      throw malformed(text, "an address has no path; use ActorPath.fromString for paths");
    }
    int at = rest.indexOf('@');
    if (at < 0) {
      return new Address(protocol, validSystem(rest, text), null, -1);
    }
    String system = validSystem(rest.substring(0, at), text);
    String hostPort = rest.substring(at + 1);
    String host;
    String portText;
    if (hostPort.startsWith("[")) {
      int close = hostPort.indexOf(']');
      if (close < 0 || close + 1 >= hostPort.length() || hostPort.charAt(close + 1) != ':') {
        throw malformed(text, "expected [ipv6]:port");
      }
      host = hostPort.substring(1, close);
      portText = hostPort.substring(close + 2);
    } else {
      int colon = hostPort.lastIndexOf(':');
      if (colon <= 0) {
        throw malformed(text, "expected host:port after '@'");
      }
      host = hostPort.substring(0, colon);
      portText = hostPort.substring(colon + 1);
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw malformed(text, "port '" + portText + "' is not a number");
    }
    if (port < 0 || port > 65535 || host.isEmpty()) {
      throw malformed(text, "host must be non-empty and port in 0..65535");
    }
    return new Address(protocol, system, host, port);
  }

  static String validSystem(String system, String context) {
    Objects.requireNonNull(system, "system name");
    if (!ActorSystem.isValidSystemName(system)) {
      throw new IllegalArgumentException(
          "invalid actor system name '"
              + system
              + "' in '"
              + context
              + "': use ASCII letters, digits, '-' and '_', starting with a letter or digit");
    }
    return system;
  }

  private static IllegalArgumentException malformed(String text, String why) {
    return new IllegalArgumentException("malformed address '" + text + "': " + why);
  }

  /** @return the protocol, {@code troupe} */
  public String protocol() {
    return protocol;
  }

  /** @return the actor system's name */
  public String system() {
    return system;
  }

  /** @return the host, empty for a local address */
  public Optional<String> host() {
    return Optional.ofNullable(host);
  }

  /** @return the port, empty for a local address */
  public Optional<Integer> port() {
    return host == null ? Optional.empty() : Optional.of(port);
  }

  /** @return whether this address has no host and port (only meaningful inside its own JVM) */
  public boolean hasLocalScope() {
    return host == null;
  }

  /** @return whether this address has a host and port */
  public boolean hasGlobalScope() {
    return host != null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Address a && text.equals(a.text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** @return {@code troupe://system} or {@code troupe://system@host:port} */
  @Override
  public String toString() {
    return text;
  }
}
