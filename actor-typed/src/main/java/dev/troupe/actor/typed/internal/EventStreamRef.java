package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.typed.eventstream.EventStream;
import java.util.Objects;

/**
 * The classic side of a typed system's event stream ref: a command told to it acts on the classic
 * system's {@link dev.troupe.actor.EventStream} at once, on the teller's thread (no actor between:
 * the stream is thread-safe, and a subscription told before a publication is then in place for
 * it). Anything that is not a command goes to dead letters. Local to its system: {@link
 * TypedRefView} refuses to send it to another node.
 */
final class EventStreamRef extends ActorRef {
  /** The name under the system's root. */
  static final String NAME = "eventStream";

  private final dev.troupe.actor.ActorSystem system;
  private final ActorPath path;

  EventStreamRef(dev.troupe.actor.ActorSystem system) {
    this.system = system;
    this.path = system.deadLetters().path().root().child("system").child(NAME);
  }

  @Override
  public ActorPath path() {
    return path;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    Objects.requireNonNull(message, "message");
    dev.troupe.actor.EventStream stream = system.eventStream();
    if (message instanceof EventStream.Publish<?> p) {
      stream.publish(p.event());
    } else if (message instanceof EventStream.Subscribe<?> s) {
      stream.subscribe(ActorRefAdapter.toClassic(s.subscriber()), s.topic());
    } else if (message instanceof EventStream.Unsubscribe<?> u) {
      stream.unsubscribe(ActorRefAdapter.toClassic(u.subscriber()));
    } else {
      system.deadLetters().tell(message, sender);
    }
  }

  @Override
  public String toString() {
    return "EventStream(" + path + ")";
  }
}
