package dev.troupe.actor.spi;

import dev.troupe.actor.ActorRef;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What a runtime does for {@link dev.troupe.pattern.Patterns}: an ask (a temporary reply ref, the
 * first reply or a timeout) and a graceful stop (the stop message, then termination or a timeout).
 */
public interface AskService {
  /**
   * Creates a temporary reply ref, passes it to {@code send}, and completes with the first message
   * it receives, or fails with an {@link dev.troupe.pattern.AskTimeoutException} after {@code
   * timeout}. A {@link dev.troupe.actor.Status.Failure} reply fails the stage with its cause. The
   * temporary ref is unregistered in either case.
   *
   * @param send sends the question with the temporary ref as sender
   * @param timeout how long to wait for the reply
   * @param target what was asked, for the timeout message
   * @return the reply
   */
  CompletionStage<Object> ask(Consumer<ActorRef> send, Duration timeout, String target);

  /**
   * Asks one actor, like {@link #ask(Consumer, Duration, String)}; but when {@code target} is known
   * to have terminated (a local actor that stopped, or dead letters) nothing is sent and the stage
   * fails at once with an {@link dev.troupe.pattern.AskTimeoutException} saying so.
   *
   * @param target the actor asked
   * @param send sends the question with the temporary ref as sender
   * @param timeout how long to wait for the reply
   * @param description what was asked, for the failure's message
   * @return the reply
   */
  CompletionStage<Object> ask(
      ActorRef target, Consumer<ActorRef> send, Duration timeout, String description);

  /**
   * Sends {@code stopMessage} to {@code target} and completes with {@code true} when it
   * terminated, or fails with {@link dev.troupe.pattern.AskTimeoutException} after {@code timeout}.
   *
   * @param target the actor to stop
   * @param timeout how long to wait
   * @param stopMessage the message that makes it stop, usually a PoisonPill
   * @return the outcome
   */
  CompletionStage<Boolean> gracefulStop(ActorRef target, Duration timeout, Object stopMessage);
}
