package dev.troupe.actor.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.InvalidActorNameException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An actor's children by name. Thread-safe, because top-level actors are created from any
 * thread (under the guardian); a name is reserved before the child exists, so two concurrent
 * creations with one name fail cleanly.
 */
final class Children {
  private static final Object RESERVED = new Object();
  private final ConcurrentHashMap<String, Object> byName = new ConcurrentHashMap<>(4);

  void reserve(String name) {
    if (byName.putIfAbsent(name, RESERVED) != null) {
      throw new InvalidActorNameException("actor name [" + name + "] is not unique");
    }
  }

  void unreserve(String name) {
    byName.remove(name, RESERVED);
  }

  void init(String name, ChildStats stats) {
    byName.put(name, stats);
  }

  ChildStats byName(String name) {
    return byName.get(name) instanceof ChildStats s ? s : null;
  }

  /** The stats of exactly this incarnation, or null. */
  ChildStats statsFor(ActorRef child) {
    ChildStats s = byName(child.path().name());
    return s != null && s.child.path().uid() == child.path().uid() ? s : null;
  }

  boolean remove(ChildStats stats) {
    return byName.remove(stats.child.path().name(), stats);
  }

  List<ChildStats> all() {
    List<ChildStats> out = new ArrayList<>(byName.size());
    for (Object o : byName.values()) {
      if (o instanceof ChildStats s) {
        out.add(s);
      }
    }
    return out;
  }

  boolean isEmpty() {
    return byName.isEmpty();
  }
}
