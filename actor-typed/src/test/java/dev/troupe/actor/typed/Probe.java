package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The tests' own probe (this module cannot use the typed testkit, which depends on it): a typed
 * actor that puts what it receives, and the signals of what it watches, into a queue the test reads
 * with bounded waits.
 */
final class Probe<T> {
  static final Duration WAIT = Duration.ofSeconds(5);

  private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final ActorRef<Object> actor;

  private record Watch(ActorRef<?> target) {}

  Probe(ActorSystem<?> system) {
    actor =
        Adapter.spawnAnonymous(
            Adapter.toClassic(system),
            Behaviors.<Object>receive(
                (ctx, msg) -> {
                  if (msg instanceof Watch w) {
                    ctx.watch(w.target());
                  } else {
                    queue.add(msg);
                  }
                  return Behaviors.same();
                },
                (ctx, signal) -> {
                  queue.add(signal);
                  return Behaviors.same();
                }));
  }

  ActorRef<T> ref() {
    return actor.unsafeUpcast();
  }

  Object receive() {
    return receive(WAIT);
  }

  Object receive(Duration max) {
    try {
      Object m = queue.poll(max.toMillis(), TimeUnit.MILLISECONDS);
      if (m == null) {
        fail("no message within " + max);
      }
      return m;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * @param max how long to wait
   * @return the next message, or null if none came within {@code max}
   */
  Object poll(Duration max) {
    try {
      return queue.poll(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  <C> C expectClass(Class<C> c) {
    return assertInstanceOf(c, receive(), "the probe's next message");
  }

  void expect(Object expected) {
    assertEquals(expected, receive(), "the probe's next message");
  }

  void expectNothing(Duration d) {
    try {
      assertNull(queue.poll(d.toMillis(), TimeUnit.MILLISECONDS), "the probe got a message");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Watches another actor: its stop arrives as a Terminated signal. */
  void watch(ActorRef<?> target) {
    actor.tell(new Watch(target));
  }

  Terminated expectTerminated(ActorRef<?> target) {
    Terminated t = expectClass(Terminated.class);
    assertEquals(target, t.getRef(), "the actor that terminated");
    return t;
  }
}
