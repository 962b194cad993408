package dev.troupe.remote.internal.transport;

import io.netty.util.NetUtil;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Whether a certificate names a host, by the rules HTTPS clients apply to servers (RFC 6125), here
 * applied to the node that connects: only the subject alternative names count (the subject's
 * common name does not); an IP address must equal an {@code iPAddress} entry (compared as
 * addresses, so any spelling of an IPv6 address matches); a host name must equal a {@code dNSName}
 * entry, ignoring case and a trailing dot, where an entry {@code *.example.com} stands for any one
 * label in front of {@code example.com} (a wildcard only as the whole leftmost label, and not
 * directly above a top-level name). Used by {@link InboundHandshakeHandler} for {@code
 * troupe.remote.tls.verify-peer-origin}.
 */
final class PeerCertificates {
  private static final int DNS_NAME = 2;
  private static final int IP_ADDRESS = 7;

  private PeerCertificates() {}

  /** @return whether {@code cert}'s subject alternative names cover {@code host} (an IP or a DNS name) */
  static boolean names(X509Certificate cert, String host) {
    byte[] ip = NetUtil.createByteArrayFromIpAddressString(host);
    String name = ip == null ? normalize(host) : null;
    for (List<?> entry : alternativeNames(cert)) {
      if (entry.size() < 2 || !(entry.get(0) instanceof Integer type) || !(entry.get(1) instanceof String value)) {
        continue;
      }
      if (ip != null && type == IP_ADDRESS) {
        byte[] named = NetUtil.createByteArrayFromIpAddressString(value);
        if (named != null && Arrays.equals(ip, named)) {
          return true;
        }
      } else if (name != null && type == DNS_NAME && dnsMatches(normalize(value), name)) {
        return true;
      }
    }
    return false;
  }

  /** @return the certificate's IP and DNS alternative names, for a log line ("no subject alternative names" if none) */
  static String describeNames(X509Certificate cert) {
    List<String> out = new ArrayList<>();
    for (List<?> entry : alternativeNames(cert)) {
      if (entry.size() >= 2 && entry.get(0) instanceof Integer type && (type == DNS_NAME || type == IP_ADDRESS)) {
        out.add((type == DNS_NAME ? "DNS:" : "IP:") + entry.get(1));
      }
    }
    return out.isEmpty() ? "no subject alternative names" : "subject alternative names " + String.join(", ", out);
  }

  private static Collection<List<?>> alternativeNames(X509Certificate cert) {
    try {
      Collection<List<?>> names = cert.getSubjectAlternativeNames();
      return names == null ? List.of() : names;
    } catch (CertificateParsingException e) {
      return List.of(); // an unreadable extension names nothing
    }
  }

  private static String normalize(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
  }

  private static boolean dnsMatches(String pattern, String host) {
    if (!pattern.startsWith("*.")) {
      return pattern.equals(host);
    }
    String suffix = pattern.substring(1); // ".example.com"
    int dot = host.indexOf('.');
    return suffix.indexOf('.', 1) > 0 && dot > 0 && host.substring(dot).equals(suffix);
  }
}
