package dev.troupe.cluster.internal.jgroups;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jgroups.PhysicalAddress;
import org.jgroups.stack.IpAddress;

/**
 * The JGroups engine's endpoints: {@code host:port} of a member's TCP transport ({@code
 * [v6-address]:port} for IPv6), as {@link JGroupsMembershipProvider#join} returns and accepts them.
 */
final class Endpoints {
  private Endpoints() {}

  /** Endpoints given to one join, at most: more is not a seed list but a mistake. */
  static final int MAX_SEEDS = 1024;

  /** @return {@code host:port} of this address and port */
  static String format(InetAddress host, int port) {
    String h = host.getHostAddress();
    return (host instanceof Inet6Address ? "[" + h + "]" : h) + ":" + port;
  }

  /**
   * @param endpoints as {@link #format} writes them
   * @return the transport addresses, in the same order
   * @throws IllegalArgumentException naming the first malformed or unresolvable endpoint
   */
  static List<PhysicalAddress> parse(List<String> endpoints) {
    Objects.requireNonNull(endpoints, "seedEndpoints");
    if (endpoints.size() > MAX_SEEDS) {
      throw new IllegalArgumentException(
          "at most " + MAX_SEEDS + " seed endpoints, was " + endpoints.size());
    }
    List<PhysicalAddress> out = new ArrayList<>(endpoints.size());
    for (String e : endpoints) {
      out.add(parse(e));
    }
    return out;
  }

  static PhysicalAddress parse(String endpoint) {
    if (endpoint == null) {
      throw new IllegalArgumentException("a seed endpoint is null");
    }
    String host;
    String portText;
    if (endpoint.startsWith("[")) {
      int close = endpoint.indexOf(']');
      if (close < 0 || close + 1 >= endpoint.length() || endpoint.charAt(close + 1) != ':') {
        throw malformed(endpoint, "expected [ipv6-address]:port");
      }
      host = endpoint.substring(1, close);
      portText = endpoint.substring(close + 2);
    } else {
      int colon = endpoint.lastIndexOf(':');
      if (colon <= 0 || endpoint.indexOf(':') != colon) {
        throw malformed(endpoint, "expected host:port (an IPv6 address in brackets)");
      }
      host = endpoint.substring(0, colon);
      portText = endpoint.substring(colon + 1);
    }
    int port;
    try {
      port = Integer.parseInt(portText);
    } catch (NumberFormatException e) {
      throw malformed(endpoint, "the port '" + portText + "' is not a number");
    }
    if (port < 1 || port > 65535 || host.isBlank()) {
      throw malformed(endpoint, "expected a host and a port in 1..65535");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException | SecurityException e) {
      throw malformed(endpoint, "unknown host '" + host + "'");
    }
    if (address.isAnyLocalAddress()) {
      throw malformed(endpoint, "the wildcard address names no member");
    }
    return new IpAddress(address, port);
  }

  private static IllegalArgumentException malformed(String endpoint, String why) {
    return new IllegalArgumentException("malformed JGroups engine endpoint '" + endpoint + "': " + why);
  }
}
