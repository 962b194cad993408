package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A membership driven by hand, for several nodes in one actor system. Node {@code i} is {@code
 * troupe://sys@127.0.0.i:2552} (uid {@code i}); its actors are named with the prefix {@code n<i>-}
 * under {@code /user} (its manager {@code /user/n1-boss}, say), so that {@link
 * SingletonMembership#locate} maps {@code /user/n1-boss} on node 1 to {@code /user/n2-boss} on node
 * 2. Every change is told to every subscriber of every node, in the same order.
 */
final class FakeCluster {
  private final Map<UniqueAddress, Member> members = new LinkedHashMap<>();
  private final List<ActorRef> subscribers = new ArrayList<>();
  private long age;

  static UniqueAddress node(int i) {
    return new UniqueAddress(Address.remote("sys", "127.0.0." + i, 2552), i);
  }

  static String prefix(int i) {
    return "n" + i + "-";
  }

  /** Node {@code i} joins and is up at once, younger than every member so far. */
  synchronized void up(int i, String... roles) {
    Member m = new Member(node(i), MemberStatus.UP, Set.of(roles), ++age);
    members.put(m.uniqueAddress(), m);
    publish(new ClusterEvent.MemberUp(m));
  }

  synchronized void leave(int i) {
    publish(new ClusterEvent.MemberLeft(move(i, MemberStatus.LEAVING)));
  }

  synchronized void exit(int i) {
    publish(new ClusterEvent.MemberExited(move(i, MemberStatus.EXITING)));
  }

  synchronized void down(int i) {
    publish(new ClusterEvent.MemberDowned(move(i, MemberStatus.DOWN)));
  }

  synchronized void remove(int i) {
    MemberStatus previous = members.get(node(i)).status();
    Member m = move(i, MemberStatus.REMOVED);
    members.remove(node(i));
    publish(new ClusterEvent.MemberRemoved(m, previous));
  }

  private Member move(int i, MemberStatus status) {
    Member m = members.get(node(i)).withStatus(status);
    members.put(m.uniqueAddress(), m);
    return m;
  }

  private void publish(Object event) {
    for (ActorRef s : subscribers) {
      s.tell(event, ActorRef.noSender());
    }
  }

  /** @return node {@code i}'s membership */
  SingletonMembership membership(int i) {
    UniqueAddress self = node(i);
    return new SingletonMembership() {
      @Override
      public UniqueAddress selfNode() {
        return self;
      }

      @Override
      public void subscribe(ActorRef subscriber) {
        synchronized (FakeCluster.this) {
          subscribers.add(subscriber);
          subscriber.tell(new CurrentClusterState(List.copyOf(members.values()), Set.of(), Optional.empty()),
              ActorRef.noSender());
        }
      }

      @Override
      public void unsubscribe(ActorRef subscriber) {
        synchronized (FakeCluster.this) {
          subscribers.remove(subscriber);
        }
      }

      @Override
      public ActorPath locate(UniqueAddress node, ActorPath localPath) {
        List<String> elements = localPath.elements();
        String top = elements.get(1);
        if (!top.startsWith(prefix(i))) {
          throw new IllegalArgumentException(localPath + " is not an actor of node " + i);
        }
        StringBuilder relative = new StringBuilder("user/").append(prefix((int) node.uid()))
            .append(top.substring(prefix(i).length()));
        for (String e : elements.subList(2, elements.size())) {
          relative.append('/').append(e);
        }
        return localPath.root().descendant(relative.toString());
      }
    };
  }
}
