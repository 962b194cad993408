package dev.troupe.actor.typed.javadsl;

import dev.troupe.actor.Scheduler;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.StatusReply;
import dev.troupe.actor.typed.internal.ActorRefAdapter;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Asking from outside an actor: a question whose message carries a temporary reply-to ref, and a
 * {@link CompletionStage} of the reply. Inside an actor, prefer {@code getContext().ask(...)}, which
 * brings the outcome back as a message.
 *
 * <pre>{@code
 * CompletionStage<Integer> n = AskPattern.ask(counter, Counter.Get::new, Duration.ofSeconds(1), system.scheduler());
 * }</pre>
 */
public final class AskPattern {
  private AskPattern() {}

  /**
   * Asks an actor. The temporary ref is the classic ask's (it works across remoting too); it lives
   * until the first reply or the timeout.
   *
   * @param target who to ask
   * @param createRequest builds the question around the reply-to ref
   * @param timeout how long to wait
   * @param scheduler the system's scheduler (the ask's timer is the runtime's own; the parameter
   *     keeps the signature Pekko users know)
   * @param <Req> the target's protocol
   * @param <Res> the reply's type
   * @return the reply; fails with {@link dev.troupe.pattern.AskTimeoutException} after the timeout
   */
  @SuppressWarnings("unchecked")
  public static <Req, Res> CompletionStage<Res> ask(
      ActorRef<Req> target, Function<ActorRef<Res>, Req> createRequest, Duration timeout, Scheduler scheduler) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(createRequest, "createRequest");
    Objects.requireNonNull(timeout, "timeout");
    dev.troupe.actor.ActorRef classic = ActorRefAdapter.toClassic(target);
    return (CompletionStage<Res>)
        Patterns.askWithReplyTo(
            classic, tmp -> Objects.requireNonNull(createRequest.apply(new ActorRefAdapter<>(tmp)), "request"), timeout);
  }

  /**
   * Asks an actor that answers with a {@link StatusReply}: the stage completes with the success's
   * value, or fails with the error's exception ({@link StatusReply.ErrorMessage} for an error made of
   * a message).
   *
   * @param target who to ask
   * @param createRequest builds the question around the reply-to ref
   * @param timeout how long to wait
   * @param scheduler the system's scheduler
   * @param <Req> the target's protocol
   * @param <Res> the success value's type
   * @return the value
   */
  public static <Req, Res> CompletionStage<Res> askWithStatus(
      ActorRef<Req> target,
      Function<ActorRef<StatusReply<Res>>, Req> createRequest,
      Duration timeout,
      Scheduler scheduler) {
    CompletionStage<StatusReply<Res>> reply = ask(target, createRequest, timeout, scheduler);
    return reply.thenCompose(
        r -> r.isSuccess() ? CompletableFuture.completedFuture(r.getValue()) : CompletableFuture.failedFuture(r.getError()));
  }
}
