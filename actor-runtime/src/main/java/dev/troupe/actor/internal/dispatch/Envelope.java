package dev.troupe.actor.internal.dispatch;

import dev.troupe.actor.ActorRef;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message with its sender, and at the same time the node of the intrusive mailbox queue: sending
 * a message allocates exactly this one object.
 *
 * <p>{@code message} and {@code sender} are written by the producer before the node is published
 * (by the release store of the predecessor's {@code next}) and read by the single consumer after
 * its acquire load of {@code next}, so they need no ordering of their own.
 *
 * <p>Not final for one reason: a tracing module ({@code troupe-opentelemetry}) sends a subclass
 * that carries the sender's trace context and overrides {@link #deliverTo} and {@link #copy}
 * (see {@link EnvelopeFactory}). While no subclass is loaded, the JIT treats {@code deliverTo} as
 * the one implementation there is (class hierarchy analysis): a system without tracing pays
 * nothing per message for the seam, and the envelope is no bigger.
 */
public class Envelope {
  private static final VarHandle NEXT;

  static {
    try {
      NEXT = MethodHandles.lookup().findVarHandle(Envelope.class, "next", Envelope.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  Object message;
  ActorRef sender;

  @SuppressWarnings("unused") // accessed through NEXT
  private Envelope next;

  /**
   * @param message the message, never null
   * @param sender the sender, may be null
   */
  public Envelope(Object message, ActorRef sender) {
    this.message = message;
    this.sender = sender;
  }

  /** @return the message */
  public final Object message() {
    return message;
  }

  /** @return the sender, {@code null} if none */
  public final ActorRef sender() {
    return sender;
  }

  /**
   * Hands this envelope to its mailbox's owner (the mailbox's thread). A subclass may wrap the
   * call (a tracing span around the actor's handling) but must call {@code owner.invoke(this)}
   * exactly once and must not throw.
   *
   * @param owner the actor cell
   */
  public void deliverTo(MailboxOwner owner) {
    owner.invoke(this);
  }

  /**
   * A fresh envelope with the same content, for a message kept beyond its run (the stash); a
   * subclass keeps what it carries.
   *
   * @return the copy
   */
  public Envelope copy() {
    return new Envelope(message, sender);
  }

  /** Drops the payload once processed: the envelope stays behind as the queue's stub. */
  public final void clear() {
    message = null;
    sender = null;
  }

  /** Acquire load: pairs with {@link #soNext}, making the node's payload visible. */
  final Envelope laNext() {
    return (Envelope) NEXT.getAcquire(this);
  }

  /** Release store: publishes a fully written successor to the consumer. */
  final void soNext(Envelope n) {
    NEXT.setRelease(this, n);
  }

  /** Plain store: only used by the consumer on a node no producer can reach any more. */
  final void spNext(Envelope n) {
    NEXT.set(this, n);
  }
}
