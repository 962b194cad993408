package dev.troupe.actor.internal.dispatch;

import dev.troupe.dispatch.ControlMessage;

/**
 * The queue of an {@code UnboundedControlAwareMailbox}: two lock-free {@link NodeQueue}s, one for
 * {@link ControlMessage}s and one for the rest; the consumer empties the control queue first. Each
 * envelope is a node of exactly one of them, so a send allocates nothing more than in the default
 * mailbox.
 *
 * <p>The scheduling protocol's exact emptiness check after a full fence holds: each offer is its
 * queue's tail exchange (a full fence), and {@link #hasMessages()} reads both tails.
 */
final class ControlAwareQueue implements MessageQueue {
  private final NodeQueue control = new NodeQueue();
  private final NodeQueue ordinary = new NodeQueue();

  @Override
  public boolean offer(Envelope e) {
    return (e.message instanceof ControlMessage ? control : ordinary).offer(e);
  }

  @Override
  public Envelope poll() {
    Envelope e = control.poll();
    return e != null ? e : ordinary.poll();
  }

  @Override
  public boolean hasMessages() {
    return control.hasMessages() || ordinary.hasMessages();
  }

  @Override
  public int sizeHint() {
    return hasMessages() ? 1 : 0;
  }
}
