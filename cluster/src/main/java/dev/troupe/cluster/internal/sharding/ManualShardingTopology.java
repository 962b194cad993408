package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.ActorRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link ShardingTopology} whose views are published by hand: by tests (several regions of one
 * JVM standing for several nodes) and by a single node without cluster wiring. Thread-safe; every
 * subscriber gets every published view in order.
 */
public final class ManualShardingTopology implements ShardingTopology {
  private final Set<ActorRef> subscribers = new LinkedHashSet<>();
  private View current;

  @Override
  public synchronized void subscribe(ActorRef region) {
    if (subscribers.add(region) && current != null) {
      region.tell(current, ActorRef.noSender());
    }
  }

  @Override
  public synchronized void unsubscribe(ActorRef region) {
    subscribers.remove(region);
  }

  /**
   * Publishes the next view (version one above the last) to every subscriber.
   *
   * @param members the members with regions, oldest first
   * @return the published view
   */
  public synchronized View publish(List<RegionMember> members) {
    View v = new View(current == null ? 1 : current.version() + 1, members);
    current = v;
    for (ActorRef r : new ArrayList<>(subscribers)) {
      r.tell(v, ActorRef.noSender());
    }
    return v;
  }

  /** @return the last published view, or null */
  public synchronized View current() {
    return current;
  }
}
