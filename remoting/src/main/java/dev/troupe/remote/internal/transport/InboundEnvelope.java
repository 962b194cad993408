package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorPath;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.serialization.Serialized;
import java.util.function.Function;

/**
 * An envelope as it arrived on an accepted connection, handed by the {@link EnvelopeDecoder} to
 * the {@link InboundDispatcher}. One instance per connection, filled anew for every frame and
 * read before the next is decoded (everything on the connection's event loop), so that an
 * arriving message costs no object of its own here. What must outlive the frame (the refs, the
 * manifest, the bytes) is read out of it, never the envelope itself.
 */
public final class InboundEnvelope {
  private final Function<ActorPath, InternalActorRef> resolve;
  private InboundTable.Entry recipientEntry;
  private InternalActorRef recipient;
  private InternalActorRef sender;
  private int serializerId;
  private String manifest;
  private byte[] bytes;
  private String malformed;
  private long seq;
  private String traceContext;

  /** @param resolve turns a path that arrived into a ref (the provider's) */
  InboundEnvelope(Function<ActorPath, InternalActorRef> resolve) {
    this.resolve = resolve;
  }

  /** Fills the envelope from a frame's fields; a path that is not one makes it {@link #malformed}. */
  void set(InboundTable.Entry recipientEntry, InboundTable.Entry senderEntry, int serializerId, String manifest, byte[] bytes) {
    this.serializerId = serializerId;
    this.manifest = manifest;
    this.bytes = bytes;
    this.seq = 0;
    this.traceContext = null;
    this.recipientEntry = recipientEntry;
    try {
      recipient = recipientEntry.ref(resolve);
      sender = senderEntry == null ? null : senderEntry.ref(resolve);
      malformed = null;
    } catch (IllegalArgumentException e) {
      recipient = null;
      sender = null;
      malformed = e.getMessage();
    }
  }

  void seq(long seq) {
    this.seq = seq;
  }

  void traceContext(String traceContext) {
    this.traceContext = traceContext;
  }

  /** @return the recipient; null when {@link #malformed} */
  public InternalActorRef recipient() {
    return recipient;
  }

  /**
   * @return the hash code of the recipient's path ({@code recipient().path().hashCode()}), kept
   *     with the connection's string table for a recipient it remembers; only when not {@link
   *     #malformed}
   */
  public int recipientPathHash() {
    return recipientEntry.pathHash(recipient);
  }

  /** @return the sender, null for none or when {@link #malformed} */
  public InternalActorRef sender() {
    return sender;
  }

  public int serializerId() {
    return serializerId;
  }

  public String manifest() {
    return manifest;
  }

  /** @return the serialized message (a copy of the frame's bytes, the receiver's to keep) */
  public byte[] bytes() {
    return bytes;
  }

  /** @return why a path in the envelope is not an actor path, or null when both are */
  public String malformed() {
    return malformed;
  }

  /** @return the message as serialized, for a {@code Dropped} event */
  public Serialized payload() {
    return new Serialized(serializerId, manifest, bytes);
  }

  /** @return the system message's number on the control lane, 0 for a user message */
  public long seq() {
    return seq;
  }

  /** @return the sender's trace context as it arrived (not yet checked), or null for an untraced message */
  public String traceContext() {
    return traceContext;
  }
}
