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
 */
public final class Envelope {
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
  public Object message() {
    return message;
  }

  /** @return the sender, {@code null} if none */
  public ActorRef sender() {
    return sender;
  }

  /** Drops the payload once processed: the envelope stays behind as the queue's stub. */
  public void clear() {
    message = null;
    sender = null;
  }

  /** Acquire load: pairs with {@link #soNext}, making the node's payload visible. */
  Envelope laNext() {
    return (Envelope) NEXT.getAcquire(this);
  }

  /** Release store: publishes a fully written successor to the consumer. */
  void soNext(Envelope n) {
    NEXT.setRelease(this, n);
  }

  /** Plain store: only used by the consumer on a node no producer can reach any more. */
  void spNext(Envelope n) {
    NEXT.set(this, n);
  }
}
