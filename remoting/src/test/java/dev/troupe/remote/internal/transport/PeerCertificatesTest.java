package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.remote.TestKeyStores;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which hosts a certificate names for {@code troupe.remote.tls.verify-peer-origin}: its subject
 * alternative names only, IP addresses as addresses, DNS names ignoring case and a trailing dot,
 * a wildcard for exactly one leftmost label.
 */
class PeerCertificatesTest {
  @TempDir static Path dir;

  /** {@code CN=elsewhere}: DNS:elsewhere.invalid, DNS:*.nodes.invalid, IP:127.0.0.2. */
  static X509Certificate elsewhere;
  /** {@code CN=node-a}: IP:127.0.0.1. */
  static X509Certificate nodeA;

  @BeforeAll
  static void certificates() throws Exception {
    TestKeyStores stores = TestKeyStores.generate(dir);
    elsewhere = (X509Certificate) TestKeyStores.load(stores.elsewhere).getCertificate("elsewhere");
    nodeA = (X509Certificate) TestKeyStores.load(stores.nodeA).getCertificate("node-a");
  }

  @Test
  void anIpAddressMustBeAnIpEntryComparedAsAnAddress() {
    assertTrue(PeerCertificates.names(nodeA, "127.0.0.1"));
    assertTrue(PeerCertificates.names(elsewhere, "127.0.0.2"));
    assertFalse(PeerCertificates.names(elsewhere, "127.0.0.1"));
    assertFalse(PeerCertificates.names(nodeA, "127.0.0.2"));
    assertFalse(PeerCertificates.names(nodeA, "::1"));
  }

  @Test
  void aHostNameMustBeADnsEntryIgnoringCaseAndATrailingDot() {
    assertTrue(PeerCertificates.names(elsewhere, "elsewhere.invalid"));
    assertTrue(PeerCertificates.names(elsewhere, "ElseWhere.INVALID."));
    assertFalse(PeerCertificates.names(elsewhere, "elsewhere"), "the CN does not count");
    assertFalse(PeerCertificates.names(elsewhere, "other.invalid"));
    assertFalse(PeerCertificates.names(nodeA, "localhost"), "an IP entry names no host name");
  }

  @Test
  void aWildcardStandsForExactlyOneLeftmostLabel() {
    assertTrue(PeerCertificates.names(elsewhere, "node1.nodes.invalid"));
    assertFalse(PeerCertificates.names(elsewhere, "nodes.invalid"));
    assertFalse(PeerCertificates.names(elsewhere, "a.node1.nodes.invalid"));
  }

  @Test
  void theLogLineListsTheNames() {
    assertEquals("subject alternative names IP:127.0.0.1", PeerCertificates.describeNames(nodeA));
  }
}
