package dev.troupe.actor.typed.eventstream;

import dev.troupe.actor.typed.ActorRef;
import java.util.Objects;

/**
 * What a typed actor tells the system's event stream ({@link
 * dev.troupe.actor.typed.ActorSystem#eventStream()}): the classic stream of the same system, so
 * that typed and classic subscribers hear the same events, {@link dev.troupe.actor.DeadLetter} and
 * {@link dev.troupe.actor.UnhandledMessage} among them.
 *
 * <pre>{@code
 * ActorRef<DeadLetter> letters = ctx.messageAdapter(DeadLetter.class, Watcher.Letter::new);
 * ctx.getSystem().eventStream().tell(new EventStream.Subscribe<>(DeadLetter.class, letters));
 * ctx.getSystem().eventStream().tell(new EventStream.Publish<>(new PriceChanged("ACME", 12)));
 * }</pre>
 *
 * <p>A command takes effect when it is told, on the teller's thread: a {@code Subscribe} told before
 * a {@code Publish} is in place when the event is published. A subscriber hears each event once,
 * whatever it subscribed to, and leaves by itself when its actor stops (also a message adapter,
 * whose actor unsubscribes it when it stops). The stream is of one system: its ref does not travel
 * to other nodes.
 */
public final class EventStream {
  private EventStream() {}

  /** A command to the event stream. */
  public sealed interface Command permits Publish, Subscribe, Unsubscribe {}

  /**
   * Publishes an event to every subscriber of its class or of a superclass or interface of it.
   *
   * @param event the event
   * @param <E> its type
   */
  public record Publish<E>(E event) implements Command {
    /** @param event the event, not null */
    public Publish {
      Objects.requireNonNull(event, "event");
    }
  }

  /**
   * Subscribes an actor to events of a class (and its subclasses).
   *
   * @param topic the class of events
   * @param subscriber who receives them
   * @param <E> their type
   */
  public record Subscribe<E>(Class<E> topic, ActorRef<E> subscriber) implements Command {
    /**
     * @param topic the class of events, not null
     * @param subscriber who receives them, not null
     */
    public Subscribe {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(subscriber, "subscriber");
    }
  }

  /**
   * Ends every subscription of an actor.
   *
   * @param subscriber the subscriber
   * @param <E> what it received
   */
  public record Unsubscribe<E>(ActorRef<E> subscriber) implements Command {
    /** @param subscriber the subscriber, not null */
    public Unsubscribe {
      Objects.requireNonNull(subscriber, "subscriber");
    }
  }
}
