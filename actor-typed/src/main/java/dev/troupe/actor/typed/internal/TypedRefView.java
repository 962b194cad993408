package dev.troupe.actor.typed.internal;

import dev.troupe.actor.spi.ClassicRefView;
import dev.troupe.actor.typed.ActorRef;

/**
 * Tells remoting (through {@link ClassicRefView}, found with {@link java.util.ServiceLoader}) that
 * a typed {@link ActorRef} stands for a classic ref: one sent as a message, or held by a field of a
 * message that Jackson writes, travels as its classic ref's path and arrives as a typed view of the
 * ref resolved on the receiving node.
 *
 * <p>A message adapter ({@code ActorContext.messageAdapter}, path {@code <actor>/$adapter}) lives
 * only in its actor's system: converting one fails, so a message holding one is dropped by remoting
 * as one it cannot serialize, with this reason, rather than delivered to a ref whose replies would
 * go to dead letters. The event stream's ref and {@code ignoreRef()} fail the same way (they stand
 * for nothing on another node), and so does a ref with no classic actor behind it (a testkit
 * inbox's).
 */
public final class TypedRefView implements ClassicRefView<ActorRef<?>> {
  /** Used by {@link java.util.ServiceLoader}. */
  public TypedRefView() {}

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Class<ActorRef<?>> type() {
    return (Class) ActorRef.class;
  }

  @Override
  public dev.troupe.actor.ActorRef toClassic(ActorRef<?> view) {
    dev.troupe.actor.ActorRef classic = ActorRefAdapter.toClassic(view);
    if (classic instanceof MessageAdapterRef) {
      throw new IllegalArgumentException(
          view + " is a message adapter, which lives only in its actor's system: send the actor's own"
              + " ref (getContext().getSelf()) and a message of its protocol, or ask it with"
              + " getContext().ask / AskPattern, whose reply-to ref works across nodes");
    }
    if (classic instanceof EventStreamRef) {
      throw new IllegalArgumentException(view + " is a system's event stream, which does not travel to other nodes");
    }
    if (classic instanceof IgnoreRef) {
      throw new IllegalArgumentException(view + " is a system's ignoreRef(), which does not travel to other nodes:"
          + " send a ref of the receiving node's own, or none");
    }
    return classic;
  }

  @Override
  public ActorRef<?> fromClassic(dev.troupe.actor.ActorRef classic) {
    return new ActorRefAdapter<>(classic);
  }
}
