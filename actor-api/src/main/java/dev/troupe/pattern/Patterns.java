package dev.troupe.pattern;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.Status;
import dev.troupe.actor.spi.AskService;
import dev.troupe.actor.spi.AskServiceRef;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** Request-reply and future helpers for actors. */
public final class Patterns {
  private Patterns() {}

  /**
   * Sends {@code message} to {@code target} with a temporary sender and completes with the first
   * reply. A {@link Status.Failure} reply fails the stage with its cause; no reply within {@code
   * timeout} fails it with {@link AskTimeoutException}. A target known to have terminated (an actor
   * that stopped, or dead letters) fails the stage at once with an {@link AskTimeoutException}
   * saying that the recipient had already terminated. A remote ask whose reply is known not to come
   * (its message was dropped on the way, or the other node has no actor at that path) fails as
   * soon as that is known with an {@link AskFailedException} saying why. Once the target's system
   * has terminated, the stage fails at once with an {@link IllegalStateException} naming the system.
   *
   * @param target the actor
   * @param message the question
   * @param timeout how long to wait
   * @return the reply
   */
  public static CompletionStage<Object> ask(ActorRef target, Object message, Duration timeout) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(message, "message");
    return asks(target)
        .ask(target, tmp -> target.tell(message, tmp), checked(timeout), describe(target, message));
  }

  /**
   * Asks with a message built around the temporary reply ref, for protocols that carry the
   * reply-to inside the message. Like {@link #ask(ActorRef, Object, Duration)}, it fails at once
   * for a target known to have terminated.
   *
   * @param target the actor
   * @param messageFactory builds the question from the reply ref
   * @param timeout how long to wait
   * @return the reply
   */
  public static CompletionStage<Object> askWithReplyTo(
      ActorRef target, Function<ActorRef, Object> messageFactory, Duration timeout) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(messageFactory, "messageFactory");
    return asks(target)
        .ask(
            target,
            tmp -> target.tell(messageFactory.apply(tmp), tmp),
            checked(timeout),
            target.toString());
  }

  /**
   * Asks every actor a selection matches and completes with the first reply. Once the system has
   * terminated, the stage fails at once with an {@link IllegalStateException} naming it.
   *
   * @param target the selection
   * @param message the question
   * @param timeout how long to wait
   * @return the first reply
   */
  public static CompletionStage<Object> ask(
      ActorSelection target, Object message, Duration timeout) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(message, "message");
    return asks(target.anchor())
        .ask(tmp -> target.tell(message, tmp), checked(timeout), describe(target, message));
  }

  /**
   * Sends the outcome of a stage to an actor when it completes: the value itself, or a {@link
   * Status.Failure} with the cause.
   *
   * @param stage the stage
   * @param executor where the send runs
   * @param <T> the value type
   * @return a handle whose {@code to(...)} names the recipient
   */
  public static <T> PipeableStage<T> pipe(CompletionStage<T> stage, Executor executor) {
    return new PipeableStage<>(Objects.requireNonNull(stage, "stage"), Objects.requireNonNull(executor, "executor"));
  }

  /**
   * Sends {@link PoisonPill} to {@code target} and completes with {@code true} once it terminated;
   * at once for an actor that had already terminated. Once the target's system has terminated, the
   * stage fails at once with an {@link IllegalStateException} naming the system.
   *
   * @param target the actor to stop
   * @param timeout how long to wait; the stage fails with {@link AskTimeoutException} after it
   * @return the outcome
   */
  public static CompletionStage<Boolean> gracefulStop(ActorRef target, Duration timeout) {
    return gracefulStop(target, timeout, PoisonPill.getInstance());
  }

  /**
   * Sends {@code stopMessage} to {@code target} and completes with {@code true} once it terminated.
   *
   * @param target the actor to stop
   * @param timeout how long to wait
   * @param stopMessage a message that makes the actor stop
   * @return the outcome
   */
  public static CompletionStage<Boolean> gracefulStop(
      ActorRef target, Duration timeout, Object stopMessage) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(stopMessage, "stopMessage");
    return asks(target).gracefulStop(target, checked(timeout), stopMessage);
  }

  /**
   * Runs {@code value} after {@code duration}, on {@code executor}, and completes as the stage it
   * returns completes (failed, if it throws).
   *
   * @param duration how long to wait first; zero or more
   * @param scheduler times it (e.g. {@code system.scheduler()})
   * @param executor where {@code value} runs
   * @param value makes the stage
   * @param <T> its value
   * @return the stage's outcome, after the delay
   */
  public static <T> CompletionStage<T> after(
      Duration duration, Scheduler scheduler, Executor executor, Callable<CompletionStage<T>> value) {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(value, "value");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("duration must not be negative, was " + duration);
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    scheduler.scheduleOnce(duration, () -> relay(value, out), executor);
    return out;
  }

  /**
   * Tries {@code attempt} at once and, while it fails, up to {@code attempts} more times, {@code
   * delay} apart; completes with the first success or the last failure.
   *
   * @param attempt makes one try (a thrown exception is a failed try)
   * @param attempts how many times to try again after the first; zero or more
   * @param delay the pause before each new try; zero or more
   * @param scheduler times the pauses
   * @param executor where the tries after the first run
   * @param <T> the value
   * @return the outcome
   */
  public static <T> CompletionStage<T> retry(
      Callable<CompletionStage<T>> attempt, int attempts, Duration delay, Scheduler scheduler, Executor executor) {
    Objects.requireNonNull(delay, "delay");
    return retry(attempt, attempts, delay, delay, 0.0, scheduler, executor);
  }

  /**
   * As {@link #retry(Callable, int, Duration, Scheduler, Executor)}, with pauses that double from
   * {@code minBackoff} up to {@code maxBackoff}, each made longer by up to {@code randomFactor} of
   * itself at random (so that many callers retrying together spread out).
   *
   * @param attempt makes one try (a thrown exception is a failed try)
   * @param attempts how many times to try again after the first; zero or more
   * @param minBackoff the first pause; zero or more
   * @param maxBackoff the longest pause; at least {@code minBackoff}
   * @param randomFactor in [0.0, 1.0]
   * @param scheduler times the pauses
   * @param executor where the tries after the first run
   * @param <T> the value
   * @return the outcome
   */
  public static <T> CompletionStage<T> retry(
      Callable<CompletionStage<T>> attempt,
      int attempts,
      Duration minBackoff,
      Duration maxBackoff,
      double randomFactor,
      Scheduler scheduler,
      Executor executor) {
    Objects.requireNonNull(attempt, "attempt");
    Objects.requireNonNull(minBackoff, "minBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(executor, "executor");
    if (attempts < 0) {
      throw new IllegalArgumentException("attempts must not be negative, was " + attempts);
    }
    if (minBackoff.isNegative() || maxBackoff.compareTo(minBackoff) < 0) {
      throw new IllegalArgumentException("backoff must satisfy 0 <= minBackoff <= maxBackoff, was " + minBackoff + " and " + maxBackoff);
    }
    if (!(randomFactor >= 0.0 && randomFactor <= 1.0)) {
      throw new IllegalArgumentException("randomFactor must be in [0.0, 1.0], was " + randomFactor);
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    new Retry<>(attempt, attempts, minBackoff.toNanos(), maxBackoff.toNanos(), randomFactor, scheduler, executor, out).run();
    return out;
  }

  /** One retry loop: each failed try schedules the next until the tries are used up. */
  private static final class Retry<T> implements Runnable {
    private final Callable<CompletionStage<T>> attempt;
    private final long minNanos;
    private final long maxNanos;
    private final double randomFactor;
    private final Scheduler scheduler;
    private final Executor executor;
    private final CompletableFuture<T> out;
    private int left;
    private int tried;

    Retry(Callable<CompletionStage<T>> attempt, int left, long minNanos, long maxNanos, double randomFactor,
        Scheduler scheduler, Executor executor, CompletableFuture<T> out) {
      this.attempt = attempt;
      this.left = left;
      this.minNanos = minNanos;
      this.maxNanos = maxNanos;
      this.randomFactor = randomFactor;
      this.scheduler = scheduler;
      this.executor = executor;
      this.out = out;
    }

    @Override
    public void run() { // one try at a time: the next is scheduled only after this one failed
      CompletionStage<T> stage;
      try {
        stage = Objects.requireNonNull(attempt.call(), "the attempt returned a null stage");
      } catch (Throwable t) {
        failed(t);
        return;
      }
      stage.whenComplete((v, t) -> {
        if (t == null) {
          out.complete(v);
        } else {
          failed(t instanceof CompletionException && t.getCause() != null ? t.getCause() : t);
        }
      });
    }

    private void failed(Throwable t) {
      if (left <= 0) {
        out.completeExceptionally(t);
        return;
      }
      left--;
      double pause = Math.min((double) maxNanos, minNanos * Math.pow(2, Math.min(tried++, 62)));
      if (randomFactor > 0.0) {
        pause *= 1.0 + java.util.concurrent.ThreadLocalRandom.current().nextDouble() * randomFactor;
      }
      scheduler.scheduleOnce(Duration.ofNanos((long) pause), this, executor);
    }
  }

  private static <T> void relay(Callable<CompletionStage<T>> value, CompletableFuture<T> out) {
    CompletionStage<T> stage;
    try {
      stage = Objects.requireNonNull(value.call(), "the callable returned a null stage");
    } catch (Throwable t) {
      out.completeExceptionally(t);
      return;
    }
    stage.whenComplete((v, t) -> {
      if (t == null) {
        out.complete(v);
      } else {
        out.completeExceptionally(t);
      }
    });
  }

  private static AskService asks(ActorRef ref) {
    if (ref instanceof AskServiceRef e) {
      return e.askService();
    }
    throw new IllegalArgumentException("not a ref of a running actor system: " + ref);
  }

  private static Duration checked(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("ask timeout must be positive, was " + timeout);
    }
    return timeout;
  }

  private static String describe(Object target, Object message) {
    return target + " (message of type " + message.getClass().getName() + ")";
  }

  /**
   * A stage waiting for a recipient.
   *
   * @param <T> the value type
   */
  public static final class PipeableStage<T> {
    private final CompletionStage<T> stage;
    private final Executor executor;

    PipeableStage(CompletionStage<T> stage, Executor executor) {
      this.stage = stage;
      this.executor = executor;
    }

    /**
     * Sends the outcome to {@code recipient} with no sender.
     *
     * @param recipient the actor
     * @return the original stage
     */
    public CompletionStage<T> to(ActorRef recipient) {
      return to(recipient, ActorRef.noSender());
    }

    /**
     * Sends the outcome to {@code recipient}.
     *
     * @param recipient the actor
     * @param sender the sender it sees
     * @return the original stage
     */
    public CompletionStage<T> to(ActorRef recipient, ActorRef sender) {
      Objects.requireNonNull(recipient, "recipient");
      stage.whenCompleteAsync(
          (value, failure) -> {
            if (failure != null) {
              recipient.tell(new Status.Failure(unwrap(failure)), sender);
            } else if (value == null) {
              recipient.tell(new Status.Failure(new NullPointerException("the stage completed with null")), sender);
            } else {
              recipient.tell(value, sender);
            }
          },
          executor);
      return stage;
    }

    /**
     * Sends the outcome to every actor a selection matches.
     *
     * @param recipient the selection
     * @return the original stage
     */
    public CompletionStage<T> to(ActorSelection recipient) {
      Objects.requireNonNull(recipient, "recipient");
      stage.whenCompleteAsync(
          (value, failure) ->
              recipient.tell(
                  failure != null ? new Status.Failure(unwrap(failure)) : value,
                  ActorRef.noSender()),
          executor);
      return stage;
    }

    private static Throwable unwrap(Throwable t) {
      return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
    }
  }
}
