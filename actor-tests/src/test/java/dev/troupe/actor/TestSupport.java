package dev.troupe.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Small helpers for the runtime's behaviour tests (the real testkit module comes later): systems
 * that are always terminated with a bounded wait, a probe actor that forwards everything into a
 * queue, and bounded waits.
 */
final class TestSupport {
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final AtomicInteger SYSTEM_COUNTER = new AtomicInteger();

  private TestSupport() {}

  /** A unique, valid system name, so thread names never collide between tests. */
  static String uniqueName(String prefix) {
    return prefix + "-" + SYSTEM_COUNTER.incrementAndGet();
  }

  /** Systems created by one test, terminated (verified) by {@link #close()}. */
  static final class Systems implements AutoCloseable {
    private final List<ActorSystem> systems = new ArrayList<>();

    ActorSystem create(String prefix) {
      return create(prefix, "");
    }

    ActorSystem create(String prefix, String hocon) {
      Config c = ConfigFactory.parseString(hocon);
      ActorSystem s = ActorSystem.create(uniqueName(prefix), c);
      systems.add(s);
      return s;
    }

    ActorSystem track(ActorSystem s) {
      systems.add(s);
      return s;
    }

    @Override
    public void close() {
      for (ActorSystem s : systems) {
        terminate(s);
      }
      systems.clear();
    }
  }

  /** Terminates a system and asserts it terminated within {@link #TIMEOUT}. */
  static void terminate(ActorSystem s) {
    s.terminate();
    try {
      s.getWhenTerminated().toCompletableFuture().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      fail("actor system " + s.name() + " did not terminate within " + TIMEOUT);
    } catch (InterruptedException | ExecutionException e) {
      throw new AssertionError("terminating " + s.name() + " failed", e);
    }
  }

  /** Waits for a stage with a bound; failures are rethrown as the stage's cause. */
  static <T> T await(CompletionStage<T> stage) throws Throwable {
    return await(stage, TIMEOUT);
  }

  static <T> T await(CompletionStage<T> stage, Duration timeout) throws Throwable {
    try {
      return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("stage not completed within " + timeout);
    } catch (ExecutionException e) {
      throw e.getCause();
    }
  }

  /** The failure a stage completes with, within the bound; fails if it completes normally. */
  static Throwable awaitFailure(CompletionStage<?> stage, Duration timeout) throws Exception {
    try {
      Object v = stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      throw new AssertionError("expected the stage to fail, but it completed with " + v);
    } catch (TimeoutException e) {
      throw new AssertionError("stage not completed within " + timeout);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  static void awaitLatch(CountDownLatch latch, String what) throws InterruptedException {
    assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "timed out waiting for " + what);
  }

  /** Polls a condition until it holds or the deadline passes. */
  static void awaitCond(BooleanSupplier cond, Duration max, String what) {
    long deadline = System.nanoTime() + max.toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("condition not met within " + max + ": " + what);
      }
      try {
        Thread.sleep(5); // polling interval, not a synchronizer: the condition decides
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  static void awaitCond(BooleanSupplier cond, String what) {
    awaitCond(cond, TIMEOUT, what);
  }

  /** Names of the live threads whose name contains {@code part}. */
  static Set<String> threadsNamed(String part) {
    Set<String> out = ConcurrentHashMap.newKeySet();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().contains(part)) {
        out.add(t.getName());
      }
    }
    return out;
  }

  /** A message as the probe saw it. */
  record Received(Object message, ActorRef sender) {}

  /** Forwards every message it receives, with its sender, into a queue. */
  static final class ProbeActor extends UntypedActor {
    private final BlockingQueue<Received> queue;

    ProbeActor(BlockingQueue<Received> queue) {
      this.queue = queue;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof WatchCmd w) {
        getContext().watch(w.actor());
      } else {
        queue.add(new Received(message, getSender()));
      }
    }
  }

  /** Makes a probe watch an actor: a forwarded Terminated is dropped, so the probe itself must watch. */
  record WatchCmd(ActorRef actor) {}

  /** A probe: an actor whose messages the test thread reads with bounded waits. */
  static final class Probe {
    final BlockingQueue<Received> queue = new LinkedBlockingQueue<>();
    final ActorRef ref;
    ActorRef lastSender;

    Probe(ActorSystem system) {
      this.ref = system.actorOf(Props.create(ProbeActor.class, queue));
    }

    Probe(ActorSystem system, String name) {
      this.ref = system.actorOf(Props.create(ProbeActor.class, queue), name);
    }

    ActorRef ref() {
      return ref;
    }

    /** The probe will receive {@link Terminated} for {@code actor}. */
    void watch(ActorRef actor) {
      ref.tell(new WatchCmd(actor), ActorRef.noSender());
    }

    Object expectMsg() {
      return expectMsg(TIMEOUT);
    }

    Object expectMsg(Duration max) {
      Received r;
      try {
        r = queue.poll(max.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      if (r == null) {
        fail("no message received by the probe within " + max);
      }
      lastSender = r.sender();
      return r.message();
    }

    void expectMsg(Object expected) {
      assertEquals(expected, expectMsg(), "probe received an unexpected message");
    }

    <T> T expectMsgClass(Class<T> type) {
      Object m = expectMsg();
      assertTrue(type.isInstance(m), "expected a " + type.getName() + " but got " + m);
      return type.cast(m);
    }

    /** Skips messages that are not of {@code type} (and match {@code filter}) until one is. */
    <T> T fishForMessage(Class<T> type, Function<T, Boolean> filter) {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          fail("no matching " + type.getName() + " within " + TIMEOUT);
        }
        Object m = expectMsg(Duration.ofNanos(left));
        if (type.isInstance(m) && filter.apply(type.cast(m))) {
          return type.cast(m);
        }
      }
    }

    /** Asserts that nothing arrives within {@code d}: waiting is the behaviour under test. */
    void expectNoMsg(Duration d) {
      Received r;
      try {
        r = queue.poll(d.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      assertNull(r, "expected no message within " + d + " but got " + r);
    }

    List<Object> receiveN(int n) {
      List<Object> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(expectMsg());
      }
      return out;
    }
  }

  /** Runs a function inside an actor, with its context, and replies with the result (or the exception). */
  record InContext(Function<ActorContext, Object> body) {}

  /** Executes {@link InContext} messages; forwards anything else to an optional target. */
  static final class ContextActor extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof InContext c) {
        Object result;
        try {
          result = c.body().apply(getContext());
        } catch (RuntimeException e) {
          result = e;
        }
        getSender().tell(result == null ? "null" : result, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  /** Runs {@code body} in {@code actor} and returns what it returned or threw. */
  static Object inContext(ActorRef actor, Function<ActorContext, Object> body) throws Throwable {
    return await(dev.troupe.pattern.Patterns.ask(actor, new InContext(body), TIMEOUT));
  }

  static void watch(ActorSystem system, ActorRef watched, Probe probe) {
    probe.watch(watched);
  }
}
