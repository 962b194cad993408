package dev.troupe.cluster.internal.pubsub;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Count;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.CountSubscribers;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.CurrentTopics;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.GetTopics;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Publish;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Put;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Remove;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Send;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.SendToAll;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Subscribe;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.SubscribeAck;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.Unsubscribe;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator.UnsubscribeAck;
import dev.troupe.cluster.pubsub.DistributedPubSubSettings;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member's publish-subscribe mediator. It keeps this node's actors by key, a string whose
 * first char says what it lists: {@code t<topic>} a topic's subscribers outside groups, {@code
 * g<topic>\0<group>} a group's, {@code p<path>} the actor put under a path (names never hold
 * U+0000, so a topic's groups are the keys between {@code g<topic>\0} and {@code g<topic>\1}). A key
 * with at least one actor here is listed in the cluster's publish-subscribe directory with this
 * mediator as its one instance; the directory tells this mediator which other members' mediators
 * list each key. A message for another member goes to its mediator as a {@link Relay} with the
 * original sender, once per member, and that mediator delivers it to its own actors.
 *
 * <p>Only this node's users change what is kept here (their subscriptions and puts); a peer's
 * relay changes nothing and reaches only actors listed under its key. Every actor kept is watched
 * and leaves every key when it stops.
 */
public final class MediatorActor extends AbstractActor {
  private static final Logger LOG = LoggerFactory.getLogger(MediatorActor.class);

  static final char TOPIC = 't';
  static final char GROUP = 'g';
  static final char PATH = 'p';

  private final ActorRef directory;
  private final DistributedPubSubSettings settings;
  /** This node's actors by key; no empty set. */
  private final TreeMap<String, Set<ActorRef>> local = new TreeMap<>();
  /** The other members' mediators by key, as the directory last told; no empty set. */
  private final TreeMap<String, Set<ActorRef>> remote = new TreeMap<>();
  /** The keys each watched actor is kept under; no empty set. */
  private final Map<ActorRef, Set<String>> keysOf = new HashMap<>();
  /** Round-robin positions by key: which member next (index 0), which of this node's actors next (1). */
  private final Map<String, int[]> turns = new HashMap<>();

  /**
   * @param directory this node's publish-subscribe directory
   * @param settings the routing logic and what happens to a message that reaches no one
   */
  public MediatorActor(ActorRef directory, DistributedPubSubSettings settings) {
    this.directory = directory;
    this.settings = settings;
  }

  @Override
  public void preStart() {
    // a restarted mediator attaches again: the directory withdraws what the last one listed
    directory.tell(new ServiceDirectory.Attach(getSelf()), getSelf());
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(Publish.class, this::publish)
        .match(Relay.class, this::relayed)
        .match(Send.class, s -> {
          if (!toOne(PATH + s.path(), s.msg(), getSender(), s.localAffinity())) {
            noOne(s.msg());
          }
        })
        .match(SendToAll.class, s -> {
          if (!toAll(PATH + s.path(), s.msg(), getSender(), s.allButSelf())) {
            noOne(s.msg());
          }
        })
        .match(Subscribe.class, this::subscribe)
        .match(Unsubscribe.class, this::unsubscribe)
        .match(Put.class, this::put)
        .match(Remove.class, r -> {
          Set<ActorRef> there = local.get(PATH + r.path());
          if (there != null) {
            Set.copyOf(there).forEach(ref -> remove(PATH + r.path(), ref));
          }
        })
        .match(ServiceDirectory.RemoteInstances.class, this::remoteChanged)
        .match(Terminated.class, t -> stopped(t.actor()))
        .match(GetTopics.class, g -> getSender().tell(new CurrentTopics(topics()), getSelf()))
        .match(CountSubscribers.class, c -> getSender().tell(count(c.topic()), getSelf()))
        .match(Count.class, c -> getSender().tell(listings(), getSelf()))
        .build();
  }

  private static String key(String topic, Optional<String> group) {
    return group.isPresent() ? GROUP + topic + '\0' + group.get() : TOPIC + topic;
  }

  private void publish(Publish p) {
    ActorRef sender = getSender();
    if (!p.sendOneMessageToEachGroup()) {
      if (!toAll(TOPIC + p.topic(), p.msg(), sender, false)) {
        noOne(p.msg());
      }
      return;
    }
    Set<String> groups = new TreeSet<>(groupsOf(local, p.topic()).keySet());
    groups.addAll(groupsOf(remote, p.topic()).keySet());
    if (groups.isEmpty()) {
      noOne(p.msg());
      return;
    }
    for (String group : groups) {
      toOne(group, p.msg(), sender, false);
    }
  }

  private static SortedMap<String, Set<ActorRef>> groupsOf(TreeMap<String, Set<ActorRef>> byKey, String topic) {
    return byKey.subMap(GROUP + topic + '\0', GROUP + topic + '\1');
  }

  /** @return whether anyone was there: this node's actors (unless left out) and other members' */
  private boolean toAll(String key, Object msg, ActorRef sender, boolean allButSelf) {
    Set<ActorRef> here = allButSelf ? null : local.get(key);
    Set<ActorRef> there = remote.get(key);
    if (here != null) {
      for (ActorRef r : here) {
        r.tell(msg, sender);
      }
    }
    if (there != null) {
      Relay relay = new Relay(key, msg);
      for (ActorRef mediator : there) {
        mediator.tell(relay, sender);
      }
    }
    return here != null || there != null;
  }

  /**
   * Picks one member among those listing the key (this one at once with {@code localAffinity}),
   * then, on this node, one of its actors.
   *
   * @return whether anyone was there
   */
  private boolean toOne(String key, Object msg, ActorRef sender, boolean localAffinity) {
    Set<ActorRef> here = local.get(key);
    Set<ActorRef> there = remote.get(key);
    if (here != null && (localAffinity || there == null)) {
      pick(key, here, 1).tell(msg, sender);
      return true;
    }
    int members = (here == null ? 0 : 1) + (there == null ? 0 : there.size());
    if (members == 0) {
      return false;
    }
    int i = next(key, 0, members);
    if (here != null) {
      if (i == 0) {
        pick(key, here, 1).tell(msg, sender);
        return true;
      }
      i--;
    }
    nth(there, i).tell(new Relay(key, msg), sender);
    return true;
  }

  /** A message relayed by another member's mediator, for this node's actors under its key. */
  private void relayed(Relay r) {
    Set<ActorRef> here = local.get(r.key());
    if (here == null) {
      noOne(r.message()); // they stopped or left while the message travelled
    } else if (r.key().charAt(0) == GROUP) {
      pick(r.key(), here, 1).tell(r.message(), getSender());
    } else {
      for (ActorRef a : here) {
        a.tell(r.message(), getSender());
      }
    }
  }

  private ActorRef pick(String key, Set<ActorRef> actors, int which) {
    return actors.size() == 1 ? actors.iterator().next() : nth(actors, next(key, which, actors.size()));
  }

  /** @return the next index below {@code n} by the routing logic, for the key's chooser {@code which} */
  private int next(String key, int which, int n) {
    if (settings.routingLogic() == DistributedPubSubSettings.RoutingLogic.RANDOM) {
      return ThreadLocalRandom.current().nextInt(n);
    }
    int[] t = turns.computeIfAbsent(key, k -> new int[2]);
    int i = Math.floorMod(t[which], n);
    t[which] = i + 1;
    return i;
  }

  private static ActorRef nth(Set<ActorRef> set, int i) {
    Iterator<ActorRef> it = set.iterator();
    for (int k = 0; k < i; k++) {
      it.next();
    }
    return it.next();
  }

  private void noOne(Object msg) {
    if (settings.sendToDeadLettersWhenNoSubscribers()) {
      ActorRef deadLetters = getContext().getSystem().deadLetters();
      deadLetters.tell(new DeadLetter(msg, getSender(), getSelf()), getSender());
    }
  }

  private void subscribe(Subscribe s) {
    add(key(s.topic(), s.group()), s.ref());
    ack(new SubscribeAck(s));
  }

  private void unsubscribe(Unsubscribe u) {
    remove(key(u.topic(), u.group()), u.ref());
    ack(new UnsubscribeAck(u));
  }

  private void ack(Object ack) {
    ActorRef sender = getSender();
    if (sender != null && !sender.equals(getContext().getSystem().deadLetters())) {
      sender.tell(ack, getSelf());
    }
  }

  private void put(Put p) {
    ActorRef ref = p.ref();
    Address at = ref.path().address();
    if (!at.hasLocalScope() && !at.equals(getSelf().path().address())) {
      LOG.warn("only an actor of this node can be put, not {} (put it on its own node's mediator)", ref);
      return;
    }
    String key = PATH + ref.path().toStringWithoutAddress();
    Set<ActorRef> before = local.get(key);
    if (before != null && !before.contains(ref)) {
      Set.copyOf(before).forEach(old -> remove(key, old)); // an earlier actor under the same path
    }
    add(key, ref);
  }

  private void add(String key, ActorRef ref) {
    Set<ActorRef> actors = local.computeIfAbsent(key, k -> new LinkedHashSet<>());
    boolean first = actors.isEmpty();
    if (!actors.add(ref)) {
      return;
    }
    Set<String> keys = keysOf.get(ref);
    if (keys == null) {
      keys = new HashSet<>();
      keysOf.put(ref, keys);
      getContext().watch(ref);
    }
    keys.add(key);
    if (first) {
      list(key, true);
    }
  }

  private void remove(String key, ActorRef ref) {
    Set<String> keys = keysOf.get(ref);
    if (keys == null || !keys.remove(key)) {
      return;
    }
    if (keys.isEmpty()) {
      keysOf.remove(ref);
      getContext().unwatch(ref);
    }
    leave(key, ref);
  }

  private void stopped(ActorRef ref) {
    Set<String> keys = keysOf.remove(ref);
    if (keys != null) {
      keys.forEach(key -> leave(key, ref));
    }
  }

  private void leave(String key, ActorRef ref) {
    Set<ActorRef> actors = local.get(key);
    if (actors != null && actors.remove(ref) && actors.isEmpty()) {
      local.remove(key);
      if (!remote.containsKey(key)) {
        turns.remove(key);
      }
      list(key, false);
    }
  }

  /** Tells the directory whether this node has actors under the key now. */
  private void list(String key, boolean listed) {
    directory.tell(new ServiceDirectory.LocalInstances(key, listed ? Set.of(getSelf()) : Set.of()), getSelf());
  }

  private void remoteChanged(ServiceDirectory.RemoteInstances r) {
    if (r.instances().isEmpty()) {
      remote.remove(r.service());
      if (!local.containsKey(r.service())) {
        turns.remove(r.service());
      }
    } else {
      remote.put(r.service(), r.instances());
    }
  }

  private Set<String> topics() {
    Set<String> topics = new TreeSet<>();
    for (TreeMap<String, Set<ActorRef>> byKey : java.util.List.of(local, remote)) {
      byKey.subMap(String.valueOf(TOPIC), String.valueOf((char) (TOPIC + 1))).keySet().forEach(k -> topics.add(k.substring(1)));
      byKey.subMap(String.valueOf(GROUP), String.valueOf((char) (GROUP + 1))).keySet()
          .forEach(k -> topics.add(k.substring(1, k.indexOf('\0'))));
    }
    return topics;
  }

  private int count(String topic) {
    int n = local.getOrDefault(TOPIC + topic, Set.of()).size();
    for (Set<ActorRef> group : groupsOf(local, topic).values()) {
      n += group.size();
    }
    return n;
  }

  private int listings() {
    int n = local.size();
    for (Set<ActorRef> mediators : remote.values()) {
      n += mediators.size();
    }
    return n;
  }
}
