package dev.troupe.actor.internal;

import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.EventStream;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Subscriptions by class, with a per-event-class cache of resolved subscribers (cleared on every
 * change), so publishing costs one map lookup plus the sends. Terminated subscribers are dropped
 * the first time an event would reach them.
 */
final class EventStreamImpl implements EventStream {
  private static final ActorRef[] NONE = new ActorRef[0];
  private final ConcurrentHashMap<Class<?>, Set<ActorRef>> byClass = new ConcurrentHashMap<>();
  private volatile ConcurrentHashMap<Class<?>, ActorRef[]> resolved = new ConcurrentHashMap<>();

  @Override
  public boolean subscribe(ActorRef subscriber, Class<?> channel) {
    Objects.requireNonNull(subscriber, "subscriber");
    Objects.requireNonNull(channel, "channel");
    boolean added = byClass.computeIfAbsent(channel, k -> ConcurrentHashMap.newKeySet()).add(subscriber);
    if (added) {
      resolved = new ConcurrentHashMap<>();
    }
    return added;
  }

  @Override
  public boolean unsubscribe(ActorRef subscriber, Class<?> channel) {
    Set<ActorRef> s = byClass.get(channel);
    boolean removed = s != null && s.remove(subscriber);
    if (removed) {
      resolved = new ConcurrentHashMap<>();
    }
    return removed;
  }

  @Override
  public void unsubscribe(ActorRef subscriber) {
    boolean removed = false;
    for (Set<ActorRef> s : byClass.values()) {
      removed |= s.remove(subscriber);
    }
    if (removed) {
      resolved = new ConcurrentHashMap<>();
    }
  }

  @Override
  public void publish(Object event) {
    Objects.requireNonNull(event, "event");
    ActorRef[] targets = resolved.computeIfAbsent(event.getClass(), this::resolve);
    for (ActorRef r : targets) {
      if (r instanceof InternalActorRef i && i.isTerminated()) {
        unsubscribe(r);
      } else {
        r.tell(event, null);
      }
    }
  }

  private ActorRef[] resolve(Class<?> eventClass) {
    Set<ActorRef> out = new LinkedHashSet<>();
    for (Map.Entry<Class<?>, Set<ActorRef>> e : byClass.entrySet()) {
      if (e.getKey().isAssignableFrom(eventClass)) {
        out.addAll(e.getValue());
      }
    }
    return out.isEmpty() ? NONE : out.toArray(NONE);
  }
}
