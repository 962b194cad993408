package dev.troupe.routing;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Props;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A router over existing actors given by path: absolute paths such as {@code "/user/a"} or full
 * {@code troupe://system@host:port/user/a} addresses.
 *
 * <p>Each routee is an {@link ActorSelectionRoutee}: a message is sent to the selection, which
 * resolves the path against the live actor tree in the sending thread. So routees may be created
 * after the router, and a path with no actor behind it sends to dead letters; group routees are
 * not watched, and the router does not stop when they stop.
 */
public abstract sealed class Group extends RouterConfig
    permits RoundRobinGroup,
        RandomGroup,
        BroadcastGroup,
        ScatterGatherFirstCompletedGroup,
        TailChoppingGroup,
        ConsistentHashingGroup {
  private final List<String> paths;
  private final String routerDispatcher;

  Group(Iterable<String> paths, String routerDispatcher) {
    Objects.requireNonNull(paths, "paths");
    List<String> copy = new ArrayList<>();
    for (String p : paths) {
      if (p == null || p.isBlank()) {
        throw new IllegalArgumentException("paths must not contain null or blank entries: " + paths);
      }
      copy.add(p);
    }
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("paths must not be empty: a group needs at least one routee path");
    }
    this.paths = List.copyOf(copy);
    this.routerDispatcher = routerDispatcher;
  }

  /**
   * Props for a router of this group, under the name Pekko's Java API gives it: a group's props
   * carry only the router, no actor of theirs is ever created.
   *
   * @return the router's props, for {@code actorOf}
   */
  public Props props() {
    return props(Props.create(NoActor.class, NoActor::new));
  }

  /** The actor class of {@link #props()}: a group creates no actor from its props. */
  private static final class NoActor extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  /** @return the routee paths, immutable */
  public List<String> paths() {
    return paths;
  }

  @Override
  public String routerDispatcher() {
    return routerDispatcher;
  }

  /**
   * This group with its router actor on another dispatcher.
   *
   * @param dispatcherId a dispatcher config id
   * @return a new group of the same kind
   */
  public abstract Group withRouterDispatcher(String dispatcherId);

  @Override
  public String toString() {
    return getClass().getSimpleName() + paths;
  }
}
