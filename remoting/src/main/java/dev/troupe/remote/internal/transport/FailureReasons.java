package dev.troupe.remote.internal.transport;

import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertPathBuilderException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Why a connection failed, in words for the log line that reports it: the connection handlers on
 * both sides turn the exception that ended a connection into a short reason here, so that a TLS
 * failure reads as what happened (a plaintext peer, a certificate this node does not trust, a
 * timeout) rather than as a chain of wrapped exceptions, and so that the wording is the same on
 * the accepting and the connecting side.
 */
final class FailureReasons {
  /** Longest reason text in a log line (a handshake failure's message can embed a hex dump). */
  private static final int MAX_REASON = 300;

  private FailureReasons() {}

  /** The reason for the log; an exception that is not about TLS or Troupe's protocol is given as text. */
  static String describe(Throwable cause) {
    Throwable t = cause;
    while ((t instanceof DecoderException || t instanceof EncoderException) && t.getCause() != null) {
      t = t.getCause();
    }
    String why;
    if (t instanceof NotSslRecordException) {
      why = "not a TLS record: the peer speaks plain TCP (troupe.remote.tls.enabled must be on at both ends)";
    } else if (t instanceof SslHandshakeTimeoutException) {
      why = "TLS handshake not completed in time (" + t.getMessage() + ")";
    } else if (t instanceof SSLHandshakeException && causedBy(t, CertPathBuilderException.class)) {
      why = "TLS handshake failed: the peer's certificate does not chain to any certificate in troupe.remote.tls.trust-store ("
          + t.getMessage() + ")";
    } else if (t instanceof SSLHandshakeException) {
      why = "TLS handshake failed: " + messages(t) + hint(String.valueOf(t.getMessage()));
    } else if (t instanceof SSLException) {
      why = "TLS: " + messages(t);
    } else if (t instanceof Wire.ProtocolException) {
      why = t.getMessage();
    } else {
      why = String.valueOf(t);
    }
    return why.length() <= MAX_REASON ? why : why.substring(0, MAX_REASON) + "…";
  }

  /** {@link #describe}, for the cause of a failed {@code SslHandshakeCompletionEvent}. */
  static String describeHandshakeFailure(Throwable cause) {
    return cause instanceof ClosedChannelException
        ? "the connection closed during the TLS handshake (is troupe.remote.tls.enabled on at the peer,"
            + " and does it trust this node's certificate?)"
        : describe(cause);
  }

  /** What a JDK handshake message (TLS alert names are standard) means for a Troupe link. */
  private static String hint(String message) {
    if (message.contains("Empty client certificate chain")) {
      return " (the peer has no certificate that this node's troupe.remote.tls.trust-store accepts)";
    }
    if (message.contains("certificate_unknown") || message.contains("bad_certificate") || message.contains("unknown_ca")) {
      return " (the peer does not accept this node's certificate)";
    }
    return "";
  }

  private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  /** The message of {@code t} and of the first cause whose message says more. */
  private static String messages(Throwable t) {
    String m = String.valueOf(t.getMessage());
    Throwable c = t.getCause();
    if (c != null && c.getMessage() != null && !m.contains(c.getMessage())) {
      m += " (" + c.getMessage() + ")";
    }
    return m;
  }
}
