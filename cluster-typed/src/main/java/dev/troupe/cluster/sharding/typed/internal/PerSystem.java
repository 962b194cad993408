package dev.troupe.cluster.sharding.typed.internal;

import dev.troupe.actor.ActorSystem;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One instance of something per actor system, made on first use and forgotten when the system
 * terminates (the typed sharding and singletons of a system).
 *
 * @param <T> what there is one of
 */
public final class PerSystem<T> {
  private final ConcurrentHashMap<ActorSystem, T> bySystem = new ConcurrentHashMap<>();
  private final Function<ActorSystem, T> make;

  /** @param make makes the instance of a system */
  public PerSystem(Function<ActorSystem, T> make) {
    this.make = Objects.requireNonNull(make, "make");
  }

  /**
   * @param system an actor system
   * @return its instance: the same on every call while the system lives
   */
  public T get(ActorSystem system) {
    Objects.requireNonNull(system, "system");
    T t = bySystem.get(system);
    if (t != null) {
      return t;
    }
    T created = make.apply(system);
    t = bySystem.putIfAbsent(system, created);
    if (t != null) {
      return t;
    }
    // registered after the put, so that a system already terminated removes it at once
    system.getWhenTerminated().whenComplete((done, e) -> bySystem.remove(system, created));
    return created;
  }
}
