package dev.troupe.persistence.typed.internal;

import dev.troupe.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The steps an effect of a persistent behaviour (event-sourced or durable-state) runs once what it
 * stores is stored: callbacks, replies, a stop, an unstash. Immutable; each {@code then...} copies
 * the list, which is short.
 *
 * @param <S> the state the steps see
 */
public final class Steps<S> {
  /** What the actor does once the steps have run. */
  public enum After {
    /** Nothing more. */
    GO_ON,
    /** Handle the stashed commands. */
    UNSTASH,
    /** Stop (after every step ran: a reply after a stop is sent). */
    STOP
  }

  private sealed interface Step<S> permits Run, Reply, Stop, UnstashAll {}

  private record Run<S>(Consumer<S> callback) implements Step<S> {}

  private record Reply<S, R>(ActorRef<R> replyTo, Function<S, R> reply) implements Step<S> {}

  private record Stop<S>() implements Step<S> {}

  private record UnstashAll<S>() implements Step<S> {}

  private static final Steps<?> NONE = new Steps<>(List.of());

  private final List<Step<S>> list;

  private Steps(List<Step<S>> list) {
    this.list = list;
  }

  /**
   * @param <S> the state
   * @return no steps
   */
  @SuppressWarnings("unchecked")
  public static <S> Steps<S> none() {
    return (Steps<S>) NONE;
  }

  private Steps<S> plus(Step<S> step) {
    List<Step<S>> more = new ArrayList<>(list.size() + 1);
    more.addAll(list);
    more.add(step);
    return new Steps<>(List.copyOf(more));
  }

  /**
   * @param callback called with the state
   * @return these steps and then that
   */
  public Steps<S> thenRun(Consumer<S> callback) {
    return plus(new Run<>(Objects.requireNonNull(callback, "callback")));
  }

  /**
   * @param replyTo who gets the reply
   * @param reply the reply, from the state
   * @param <R> its type
   * @return these steps and then that
   */
  public <R> Steps<S> thenReply(ActorRef<R> replyTo, Function<S, R> reply) {
    return plus(new Reply<>(Objects.requireNonNull(replyTo, "replyTo"), Objects.requireNonNull(reply, "reply")));
  }

  /** @return these steps and then a stop */
  public Steps<S> thenStop() {
    return plus(new Stop<>());
  }

  /** @return these steps and then an unstash */
  public Steps<S> thenUnstashAll() {
    return plus(new UnstashAll<>());
  }

  /** @return whether there are none */
  public boolean isEmpty() {
    return list.isEmpty();
  }

  /**
   * Runs the callbacks and sends the replies, in order, with the state.
   *
   * @param state the state
   * @return what the actor does next: a stop wins over an unstash
   */
  public After run(S state) {
    boolean unstash = false;
    boolean stop = false;
    for (Step<S> step : list) {
      if (step instanceof Run<S> run) {
        run.callback().accept(state);
      } else if (step instanceof Reply<S, ?> reply) {
        send(reply, state);
      } else if (step instanceof Stop<S>) {
        stop = true;
      } else {
        unstash = true;
      }
    }
    return stop ? After.STOP : unstash ? After.UNSTASH : After.GO_ON;
  }

  private static <S, R> void send(Reply<S, R> reply, S state) {
    reply.replyTo().tell(reply.reply().apply(state));
  }

  @Override
  public String toString() {
    return list.toString();
  }
}
