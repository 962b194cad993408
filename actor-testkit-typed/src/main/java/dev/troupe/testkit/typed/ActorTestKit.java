package dev.troupe.testkit.typed;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real typed system for a test: spawn the actors under test, talk to them through {@link
 * TestProbe}s, and shut the system down (verified) with {@link #shutdownTestKit()}. One kit per
 * test class is usual; {@link ActorTestKitExtension} does the creating and shutting down.
 */
public final class ActorTestKit {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final ActorSystem<Void> system;

  private ActorTestKit(ActorSystem<Void> system) {
    this.system = system;
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
        ActorSystem.create(Behaviors.empty(), name, Objects.requireNonNull(config, "config").withFallback(ConfigFactory.load())));
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
    return Adapter.spawnAnonymous(Adapter.toClassic(system), behavior);
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
    return Adapter.spawn(Adapter.toClassic(system), behavior, name);
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
