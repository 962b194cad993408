package dev.troupe.testkit.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real typed system for a test: spawn the actors under test, talk to them through {@link
 * TestProbe}s, and shut the system down (verified) with {@link #shutdownTestKit()}. Spawned actors
 * are children of the system's typed guardian ({@code /user/guardian/<name>}), so one that fails stops, as a
 * typed actor does under a typed parent. One kit per
 * test class is usual; {@link ActorTestKitExtension} does the creating and shutting down.
 */
public final class ActorTestKit {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final ActorSystem<Void> system;
  private final ActorRef<Spawn<?>> guardian;

  @SuppressWarnings("unchecked")
  private ActorTestKit(ActorSystem<Spawn<?>> system) {
    this.system = (ActorSystem<Void>) (ActorSystem<?>) system; // the guardian's protocol stays the kit's own
    this.guardian = system;
  }

  /**
   * What the kit's guardian does: spawn an actor under test as its child. A typed parent stops a
   * child that fails (a classic one would restart it), so an actor under test fails as it would in
   * an application.
   */
  private record Spawn<T>(Behavior<T> behavior, String name, CompletableFuture<ActorRef<T>> spawned) {
    static Behavior<Spawn<?>> guardian() {
      return Behaviors.receive((ctx, s) -> {
        s.spawnIn(ctx);
        return Behaviors.same();
      });
    }

    void spawnIn(ActorContext<Spawn<?>> ctx) {
      try {
        spawned.complete(name == null ? ctx.spawnAnonymous(behavior) : ctx.spawn(behavior, name));
      } catch (RuntimeException e) {
        spawned.completeExceptionally(e);
      }
    }
  }

  private <T> ActorRef<T> spawnUnderGuardian(Behavior<T> behavior, String name) {
    CompletableFuture<ActorRef<T>> spawned = new CompletableFuture<>();
    guardian.tell(new Spawn<>(Objects.requireNonNull(behavior, "behavior"), name, spawned));
    try {
      return spawned.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("spawning failed", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("the kit's guardian did not spawn within 10 s (is the system terminated?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while spawning", e);
    }
  }

  /** @return a kit with a new system and the default configuration */
  public static ActorTestKit create() {
    return create(ConfigFactory.load());
  }

  /**
   * @param config the configuration (reference.conf is added under it)
   * @return a kit with a new system
   */
  public static ActorTestKit create(Config config) {
    return create("ActorTestKit-" + COUNTER.incrementAndGet(), config);
  }

  /**
   * @param name the system's name
   * @param config the configuration
   * @return a kit with a new system
   */
  public static ActorTestKit create(String name, Config config) {
    return new ActorTestKit(
        ActorSystem.create(Spawn.guardian(), name, Objects.requireNonNull(config, "config").withFallback(ConfigFactory.load())));
  }

  /** @return the kit's system */
  public ActorSystem<Void> system() {
    return system;
  }

  /**
   * Starts an actor with a generated name.
   *
   * @param behavior its behaviour
   * @param <T> what it accepts
   * @return its ref
   */
  public <T> ActorRef<T> spawn(Behavior<T> behavior) {
    return spawnUnderGuardian(behavior, null);
  }

  /**
   * Starts an actor.
   *
   * @param behavior its behaviour
   * @param name its name
   * @param <T> what it accepts
   * @return its ref
   */
  public <T> ActorRef<T> spawn(Behavior<T> behavior, String name) {
    return spawnUnderGuardian(behavior, Objects.requireNonNull(name, "name"));
  }

  /**
   * Stops an actor the kit spawned and waits until it is gone.
   *
   * @param ref the actor
   * @param max the longest wait
   */
  public void stop(ActorRef<?> ref, Duration max) {
    TestProbe<Object> probe = createTestProbe();
    dev.troupe.actor.ActorRef classic = Adapter.toClassic(ref);
    Adapter.toClassic(system).stop(classic);
    probe.expectTerminated(ref, max);
  }

  /**
   * Stops an actor the kit spawned and waits (the default timeout) until it is gone.
   *
   * @param ref the actor
   */
  public void stop(ActorRef<?> ref) {
    stop(ref, Duration.ofSeconds(5));
  }

  /**
   * @param <M> what it accepts
   * @return a new probe
   */
  public <M> TestProbe<M> createTestProbe() {
    return TestProbe.create(system);
  }

  /**
   * @param messageClass what it accepts
   * @param <M> that type
   * @return a new probe
   */
  public <M> TestProbe<M> createTestProbe(Class<M> messageClass) {
    return TestProbe.create(messageClass, system);
  }

  /** Terminates the system and verifies it terminated (within {@code troupe.test.shutdown-timeout}). */
  public void shutdownTestKit() {
    TestKit.shutdownActorSystem(Adapter.toClassic(system));
  }

  @Override
  public String toString() {
    return "ActorTestKit(" + system.name() + ")";
  }
}
