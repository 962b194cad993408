package dev.troupe.testkit;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.testkit.TestActor.Control;
import dev.troupe.testkit.TestActor.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

// One file on purpose (~770 lines): the expect/await vocabulary is one flat API, each method short and
// independent of the others, read by looking one up; the test actor it drives is in TestActor.
/**
 * Drives actor tests from a JUnit test: a test actor ({@link #getRef()}) queues every message it
 * receives, and the {@code expect…} methods take them off the queue with bounded waits, failing
 * with an {@link AssertionError} that says what was expected and what arrived.
 *
 * <p>Every timeout is multiplied by {@code troupe.test.timefactor} ({@link #dilated(Duration)}),
 * so a slow CI machine needs one config value, not edited tests. Methods without a timeout use
 * the time left in the enclosing {@link #within(Duration, Supplier)} block, or {@code
 * troupe.test.single-expect-default}.
 *
 * <p>A TestKit is used from one test thread; its test actor may receive from any number.
 *
 * <p>Why one file of about 780 lines: it is the user's one entry point, Pekko's TestKit shape
 * (expectations, {@code within}, {@code awaitCond}/{@code awaitAssert}, child and watch helpers
 * over one queue and one time budget); most of its length is javadoc of small methods.
 */
public class TestKit {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final ActorSystem system;
  private final LinkedBlockingDeque<Received> queue = new LinkedBlockingDeque<>();
  private final ActorRef testActor;
  private final double timeFactor;
  private final Duration singleExpectDefault;
  private final Duration noMessageDefault;
  private Received last;
  private long withinEndNanos; // 0 = not inside within()

  /**
   * Creates a test kit with a fresh test actor.
   *
   * @param system the system under test
   */
  public TestKit(ActorSystem system) {
    this(system, "testActor-" + COUNTER.incrementAndGet());
  }

  /**
   * Creates a test kit whose test actor has the given name under {@code /user}.
   *
   * @param system the system under test
   * @param name the test actor's name
   */
  protected TestKit(ActorSystem system, String name) {
    this.system = Objects.requireNonNull(system, "system");
    Config c = system.settings().config();
    this.timeFactor = timeFactor(c);
    this.singleExpectDefault = c.getDuration("troupe.test.single-expect-default");
    this.noMessageDefault = c.getDuration("troupe.test.expect-no-message-default");
    this.testActor = system.actorOf(Props.create(TestActor.Actor.class, queue), name);
  }

  static double timeFactor(Config c) {
    double f;
    try {
      f = c.getDouble("troupe.test.timefactor");
    } catch (com.typesafe.config.ConfigException e) {
      throw new ConfigurationException("invalid configuration value at 'troupe.test.timefactor'", e);
    }
    if (!(f > 0)) {
      throw new ConfigurationException(
          "invalid configuration value at 'troupe.test.timefactor': must be > 0, was " + f);
    }
    return f;
  }

  // ------------------------------------------------------------------ basics

  /** @return the test actor: pass it as sender or as a reply-to */
  public ActorRef getRef() {
    return testActor;
  }

  /** @return the test actor (same as {@link #getRef()}) */
  public ActorRef getTestActor() {
    return testActor;
  }

  /** @return the system under test */
  public ActorSystem getSystem() {
    return system;
  }

  /** @return the sender of the last message taken off the queue */
  public ActorRef getLastSender() {
    if (last == null) {
      throw new IllegalStateException("no message has been received yet");
    }
    return last.sender();
  }

  /**
   * Scales a duration by {@code troupe.test.timefactor}.
   *
   * @param d the duration
   * @return {@code d * timefactor}
   */
  public Duration dilated(Duration d) {
    return Duration.ofNanos((long) (d.toNanos() * timeFactor));
  }

  /** @return the time left in the enclosing {@code within} block, or the default expect timeout */
  public Duration remainingOrDefault() {
    return withinEndNanos == 0 ? dilated(singleExpectDefault) : remaining();
  }

  /** @return the time left in the enclosing {@code within} block */
  public Duration remaining() {
    if (withinEndNanos == 0) {
      throw new IllegalStateException("remaining() is only defined inside within(...)");
    }
    return Duration.ofNanos(Math.max(0, withinEndNanos - System.nanoTime()));
  }

  private Duration cap(Duration max) {
    Duration d = dilated(max);
    if (withinEndNanos != 0) {
      Duration r = remaining();
      return r.compareTo(d) < 0 ? r : d;
    }
    return d;
  }

  /**
   * Sends a message with the test actor as sender.
   *
   * @param target the recipient
   * @param message the message
   */
  public void send(ActorRef target, Object message) {
    target.tell(message, testActor);
  }

  /**
   * Replies to the sender of the last received message.
   *
   * @param message the reply
   */
  public void reply(Object message) {
    getLastSender().tell(message, testActor);
  }

  /**
   * Forwards the last received message to {@code target}, keeping its original sender.
   *
   * @param target the recipient
   */
  public void forward(ActorRef target) {
    if (last == null) {
      throw new IllegalStateException("no message has been received yet");
    }
    target.tell(last.message(), last.sender());
  }

  // ------------------------------------------------------------------ expectations

  /**
   * Expects a message equal to {@code expected} within the default time.
   *
   * @param expected the message
   * @param <T> its type
   * @return the received message
   */
  public <T> T expectMsg(T expected) {
    return expectMsgWithin(remainingOrDefault(), expected, null);
  }

  /**
   * Expects a message equal to {@code expected} within {@code max}.
   *
   * @param max the longest wait (dilated)
   * @param expected the message
   * @param <T> its type
   * @return the received message
   */
  public <T> T expectMsg(Duration max, T expected) {
    return expectMsgWithin(cap(max), expected, null);
  }

  /**
   * Expects a message equal to {@code expected} within {@code max}.
   *
   * @param max the longest wait (dilated)
   * @param expected the message
   * @param hint added to the failure message
   * @param <T> its type
   * @return the received message
   */
  public <T> T expectMsg(Duration max, T expected, String hint) {
    return expectMsgWithin(cap(max), expected, hint);
  }

  @SuppressWarnings("unchecked")
  private <T> T expectMsgWithin(Duration wait, T expected, String hint) {
    Object m = receive(wait, "expectMsg(" + expected + ")" + (hint == null ? "" : " " + hint));
    if (!Objects.equals(expected, m)) {
      throw new AssertionError(
          "expected message " + expected + (hint == null ? "" : " (" + hint + ")") + " but got " + m);
    }
    return (T) m;
  }

  /**
   * Expects a message of a class (or a subclass).
   *
   * @param type the class
   * @param <T> its type
   * @return the message
   */
  public <T> T expectMsgClass(Class<T> type) {
    return expectMsgClassWithin(remainingOrDefault(), type);
  }

  /**
   * Expects a message of a class (or a subclass) within {@code max}.
   *
   * @param max the longest wait (dilated)
   * @param type the class
   * @param <T> its type
   * @return the message
   */
  public <T> T expectMsgClass(Duration max, Class<T> type) {
    return expectMsgClassWithin(cap(max), type);
  }

  private <T> T expectMsgClassWithin(Duration wait, Class<T> type) {
    Object m = receive(wait, "expectMsgClass(" + type.getName() + ")");
    if (!type.isInstance(m)) {
      throw new AssertionError(
          "expected a message of " + type.getName() + " but got " + m + " (" + m.getClass().getName() + ")");
    }
    return type.cast(m);
  }

  /**
   * Expects a message equal to one of {@code candidates}.
   *
   * @param candidates the accepted messages
   * @return the received message
   */
  public Object expectMsgAnyOf(Object... candidates) {
    return expectMsgAnyOfWithin(remainingOrDefault(), candidates);
  }

  /**
   * Expects, within {@code max}, a message equal to one of {@code candidates}.
   *
   * @param max the longest wait (dilated)
   * @param candidates the accepted messages
   * @return the received message
   */
  public Object expectMsgAnyOf(Duration max, Object... candidates) {
    return expectMsgAnyOfWithin(cap(max), candidates);
  }

  private Object expectMsgAnyOfWithin(Duration wait, Object[] candidates) {
    Object m = receive(wait, "expectMsgAnyOf" + Arrays.toString(candidates));
    for (Object c : candidates) {
      if (Objects.equals(c, m)) {
        return m;
      }
    }
    throw new AssertionError("expected any of " + Arrays.toString(candidates) + " but got " + m);
  }

  /** Expects that no message arrives within {@code troupe.test.expect-no-message-default}. */
  public void expectNoMessage() {
    expectNoMessage(noMessageDefault);
  }

  /**
   * Expects that no message arrives within {@code max}. Waiting the whole time is the point of
   * this method.
   *
   * @param max how long to watch (dilated)
   */
  public void expectNoMessage(Duration max) {
    Received r = poll(cap(max));
    if (r != null) {
      last = r;
      throw new AssertionError("expected no message within " + cap(max) + " but got " + r.message());
    }
  }

  /**
   * Receives {@code n} messages within the default time.
   *
   * @param n how many
   * @return them, in arrival order
   */
  public List<Object> receiveN(int n) {
    return receiveNWithin(n, remainingOrDefault());
  }

  /**
   * Receives {@code n} messages within {@code max} in total.
   *
   * @param n how many
   * @param max the longest total wait (dilated)
   * @return them, in arrival order
   */
  public List<Object> receiveN(int n, Duration max) {
    return receiveNWithin(n, cap(max));
  }

  private List<Object> receiveNWithin(int n, Duration total) {
    long end = System.nanoTime() + total.toNanos();
    List<Object> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Duration left = Duration.ofNanos(Math.max(0, end - System.nanoTime()));
      Received r = poll(left);
      if (r == null) {
        throw new AssertionError(
            "timeout (" + total + ") while waiting for message " + (i + 1) + " of " + n + "; got " + out);
      }
      last = r;
      out.add(r.message());
    }
    return out;
  }

  /**
   * Receives one message, or returns {@code null} if none arrives within {@code max}.
   *
   * @param max the longest wait (dilated)
   * @return the message or null
   */
  public Object receiveOne(Duration max) {
    Received r = poll(cap(max));
    if (r != null) {
      last = r;
      return r.message();
    }
    return null;
  }

  /**
   * Receives messages until {@code filter} returns {@code true}, ignoring the ones for which it
   * returns {@code false}.
   *
   * @param max the longest total wait (dilated)
   * @param hint describes what is fished for, in the failure message
   * @param filter decides
   * @return the message that matched
   */
  public Object fishForMessage(Duration max, String hint, Function<Object, Boolean> filter) {
    long end = System.nanoTime() + cap(max).toNanos();
    List<Object> seen = new ArrayList<>();
    for (; ; ) {
      Duration left = Duration.ofNanos(Math.max(0, end - System.nanoTime()));
      Received r = poll(left);
      if (r == null) {
        throw new AssertionError("timeout while fishing for " + hint + "; ignored " + seen);
      }
      last = r;
      if (Boolean.TRUE.equals(filter.apply(r.message()))) {
        return r.message();
      }
      seen.add(r.message());
    }
  }

  /**
   * Watches an actor with the test actor; its {@link Terminated} then arrives in the queue.
   *
   * @param ref the actor
   * @return the actor
   */
  public ActorRef watch(ActorRef ref) {
    return control(new Control.Watch(ref, true));
  }

  /**
   * Stops watching an actor.
   *
   * @param ref the actor
   * @return the actor
   */
  public ActorRef unwatch(ActorRef ref) {
    return control(new Control.Watch(ref, false));
  }

  /**
   * Expects the {@link Terminated} of a watched actor.
   *
   * @param target the actor (watch it first)
   * @return the notification
   */
  public Terminated expectTerminated(ActorRef target) {
    return expectTerminated(singleExpectDefault, target);
  }

  /**
   * Expects the {@link Terminated} of a watched actor within {@code max}.
   *
   * @param max the longest wait (dilated)
   * @param target the actor
   * @return the notification
   */
  public Terminated expectTerminated(Duration max, ActorRef target) {
    Object m = receive(cap(max), "expectTerminated(" + target + ")");
    if (!(m instanceof Terminated t) || !t.actor().equals(target)) {
      throw new AssertionError("expected Terminated(" + target + ") but got " + m);
    }
    return t;
  }

  /**
   * Creates a child of the test actor, supervised by it with the default strategy.
   *
   * @param props the child's props
   * @return the child
   */
  public ActorRef childActorOf(Props props) {
    return control(new Control.CreateChild(props, null, new CompletableFuture<>()));
  }

  /**
   * Creates a named child of the test actor.
   *
   * @param props the child's props
   * @param name its name
   * @return the child
   */
  public ActorRef childActorOf(Props props, String name) {
    return control(new Control.CreateChild(props, name, new CompletableFuture<>()));
  }

  private ActorRef control(Control c) {
    CompletableFuture<ActorRef> done = c.done();
    testActor.tell(c, ActorRef.noSender());
    try {
      return done.get(dilated(singleExpectDefault).toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
    } catch (TimeoutException e) {
      throw new AssertionError("the test actor did not answer " + c + " in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  // ------------------------------------------------------------------ time blocks

  /**
   * Runs {@code block} and checks that it finished within {@code max}; expectations inside
   * without their own timeout share the time left.
   *
   * @param max the time limit (dilated)
   * @param block the code
   * @param <T> its result type
   * @return its result
   */
  public <T> T within(Duration max, Supplier<T> block) {
    return within(Duration.ZERO, max, block);
  }

  /**
   * Runs {@code block} and checks that it took between {@code min} and {@code max}.
   *
   * @param min the least time it must take (not dilated)
   * @param max the time limit (dilated)
   * @param block the code
   * @param <T> its result type
   * @return its result
   */
  public <T> T within(Duration min, Duration max, Supplier<T> block) {
    Duration limit = dilated(max);
    long start = System.nanoTime();
    long outer = withinEndNanos;
    long end = start + limit.toNanos();
    withinEndNanos = outer != 0 && outer < end ? outer : end;
    T result;
    try {
      result = block.get();
    } finally {
      withinEndNanos = outer;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    if (took.compareTo(min) < 0) {
      throw new AssertionError("block took " + took + ", should have taken at least " + min);
    }
    if (took.compareTo(limit) > 0) {
      throw new AssertionError("block took " + took + ", exceeding " + limit);
    }
    return result;
  }

  /**
   * Waits until {@code condition} holds, checking every 10 ms, for the default time.
   *
   * @param condition the condition
   */
  public void awaitCond(Supplier<Boolean> condition) {
    awaitCondWithin(remainingOrDefault(), Duration.ofMillis(10), "condition", condition);
  }

  /**
   * Waits until {@code condition} holds, for at most {@code max}.
   *
   * @param max the longest wait (dilated)
   * @param condition the condition
   */
  public void awaitCond(Duration max, Supplier<Boolean> condition) {
    awaitCondWithin(cap(max), Duration.ofMillis(10), "condition", condition);
  }

  /**
   * Waits until {@code condition} holds, checking every 10 ms, for the default time.
   *
   * @param message what is waited for, in the failure message
   * @param condition the condition
   */
  public void awaitCond(String message, Supplier<Boolean> condition) {
    awaitCondWithin(remainingOrDefault(), Duration.ofMillis(10), message, condition);
  }

  /**
   * Waits until {@code condition} holds, checking every {@code interval}.
   *
   * @param max the longest wait (dilated)
   * @param interval the time between checks
   * @param message the failure message
   * @param condition the condition
   */
  public void awaitCond(Duration max, Duration interval, String message, Supplier<Boolean> condition) {
    awaitCondWithin(cap(max), interval, message, condition);
  }

  private void awaitCondWithin(
      Duration wait, Duration interval, String message, Supplier<Boolean> condition) {
    long end = System.nanoTime() + wait.toNanos();
    while (!Boolean.TRUE.equals(condition.get())) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("timeout (" + wait + ") waiting for " + message);
      }
      pause(Math.min(left, interval.toNanos()));
    }
  }

  /**
   * Runs {@code assertion} until it stops throwing {@link AssertionError}, for the default time.
   *
   * @param assertion the check
   * @param <A> its result type
   * @return its result
   */
  public <A> A awaitAssert(Supplier<A> assertion) {
    return awaitAssert(singleExpectDefault, assertion);
  }

  /**
   * Runs {@code assertion} until it stops throwing, for at most {@code max}; the last failure is
   * rethrown. Any exception and {@link AssertionError} count as "not yet" (a lookup that throws
   * while the actor is not there yet is retried like a failed assertion); other errors
   * ({@code OutOfMemoryError}, {@code LinkageError}, …) end the wait at once.
   *
   * @param max the longest wait (dilated)
   * @param assertion the check
   * @param <A> its result type
   * @return its result
   */
  public <A> A awaitAssert(Duration max, Supplier<A> assertion) {
    long end = System.nanoTime() + cap(max).toNanos();
    for (; ; ) {
      try {
        return assertion.get();
      } catch (AssertionError | RuntimeException e) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw e;
        }
        pause(Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
      }
    }
  }

  // ------------------------------------------------------------------ completion stages

  /**
   * Waits, for the default time, for a stage to complete normally and returns its value.
   *
   * @param stage the stage, e.g. of an {@code ask}
   * @param <T> its value type
   * @return its value
   * @throws AssertionError if it does not complete in time, or fails (with the failure as cause)
   */
  public <T> T awaitResult(CompletionStage<T> stage) {
    return awaitResultWithin(remainingOrDefault(), stage);
  }

  /**
   * Waits, for at most {@code max}, for a stage to complete normally and returns its value.
   *
   * @param max the longest wait (dilated)
   * @param stage the stage
   * @param <T> its value type
   * @return its value
   * @throws AssertionError if it does not complete in time, or fails (with the failure as cause)
   */
  public <T> T awaitResult(Duration max, CompletionStage<T> stage) {
    return awaitResultWithin(cap(max), stage);
  }

  private <T> T awaitResultWithin(Duration wait, CompletionStage<T> stage) {
    try {
      return complete(wait, stage);
    } catch (ExecutionException e) {
      Throwable cause = unwrap(e);
      throw new AssertionError("expected the stage to complete normally but it failed with " + cause, cause);
    }
  }

  /**
   * Waits, for the default time, for a stage to fail and returns the failure.
   *
   * @param stage the stage, e.g. of an {@code ask}
   * @return what it failed with (not wrapped in a {@link CompletionException})
   * @throws AssertionError if it does not complete in time, or completes normally
   */
  public Throwable awaitFailure(CompletionStage<?> stage) {
    return awaitFailureWithin(remainingOrDefault(), stage);
  }

  /**
   * Waits, for at most {@code max}, for a stage to fail and returns the failure.
   *
   * @param max the longest wait (dilated)
   * @param stage the stage
   * @return what it failed with (not wrapped in a {@link CompletionException})
   * @throws AssertionError if it does not complete in time, or completes normally
   */
  public Throwable awaitFailure(Duration max, CompletionStage<?> stage) {
    return awaitFailureWithin(cap(max), stage);
  }

  private Throwable awaitFailureWithin(Duration wait, CompletionStage<?> stage) {
    Object value;
    try {
      value = complete(wait, stage);
    } catch (ExecutionException e) {
      return unwrap(e);
    }
    throw new AssertionError("expected the stage to fail but it completed with " + value);
  }

  private static <T> T complete(Duration wait, CompletionStage<T> stage)
      throws ExecutionException {
    try {
      return stage.toCompletableFuture().get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("timeout (" + wait + ") waiting for the stage to complete", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the stage to complete", e);
    }
  }

  private static Throwable unwrap(ExecutionException e) {
    Throwable t = e.getCause();
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  // ------------------------------------------------------------------ threads

  /**
   * The names of the live threads whose name starts with {@code prefix}. A system's threads are
   * named after it and their dispatcher: {@code system.name() + "-my-dispatcher-"} finds the
   * threads of {@code my-dispatcher}, {@code system.name() + "-"} all of the system's.
   *
   * @param prefix the start of the names
   * @return the names, sorted
   */
  public static Set<String> liveThreads(String prefix) {
    Set<String> out = new TreeSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        out.add(t.getName());
      }
    }
    return out;
  }

  private static void pause(long nanos) {
    // Polling a condition that has no event to wait on: the pause is the polling interval.
    java.util.concurrent.locks.LockSupport.parkNanos(nanos);
  }

  // ------------------------------------------------------------------ system lifecycle

  /**
   * Terminates a system and fails if it does not terminate within {@code troupe.test.shutdown-timeout}.
   *
   * @param system the system
   */
  public static void shutdownActorSystem(ActorSystem system) {
    Config c = system.settings().config();
    Duration d = c.getDuration("troupe.test.shutdown-timeout");
    shutdownActorSystem(system, Duration.ofNanos((long) (d.toNanos() * timeFactor(c))), true);
  }

  /**
   * Terminates a system and waits for it.
   *
   * @param system the system
   * @param duration how long to wait
   * @param verifySystemShutdown whether to throw if it did not terminate in time
   */
  public static void shutdownActorSystem(
      ActorSystem system, Duration duration, boolean verifySystemShutdown) {
    try {
      system.terminate().toCompletableFuture().get(duration.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (verifySystemShutdown) {
        throw new AssertionError("actor system " + system.name() + " did not terminate within " + duration, e);
      }
    } catch (ExecutionException e) {
      throw new AssertionError("actor system " + system.name() + " failed to terminate", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while terminating " + system.name(), e);
    }
  }

  // ------------------------------------------------------------------ internals

  private Object receive(Duration wait, String what) {
    Received r = poll(wait);
    if (r == null) {
      throw new AssertionError("timeout (" + wait + ") during " + what + ": no message arrived");
    }
    last = r;
    return r.message();
  }

  private Received poll(Duration wait) {
    try {
      return queue.pollFirst(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for a message", e);
    }
  }
}
