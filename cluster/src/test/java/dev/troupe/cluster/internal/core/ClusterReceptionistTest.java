package dev.troupe.cluster.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.Receptionist.Listing;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.cluster.Cluster;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The typed receptionist across a cluster (in-memory engine, nodes on 127.0.0.1 in this JVM): an
 * instance registered on one member is listed on every member and can be sent to from there; it
 * leaves every listing when it stops, when it is deregistered, and when its member is removed; a
 * member that comes up later is told what the others have; instances of one key on several members
 * are listed together.
 */
@Timeout(90)
class ClusterReceptionistTest {
  /** How long a change may take to reach another member on a loaded 2-core machine. */
  private static final Duration CHANGE = Duration.ofSeconds(15);
  private static final ServiceKey<String> KEY = ServiceKey.create(String.class, "greeter");

  private final ClusterNodes nodes = new ClusterNodes();

  @AfterEach
  void stop() {
    nodes.close();
  }

  /** A service that hands every string it gets to a classic probe on its own node. */
  private static Behavior<String> forwardingTo(dev.troupe.actor.ActorRef probe) {
    return Behaviors.receiveMessage(s -> {
      probe.tell(s, dev.troupe.actor.ActorRef.noSender());
      return Behaviors.same();
    });
  }

  private static ActorRef<Receptionist.Command> receptionist(ActorSystem system) {
    return Adapter.toTyped(system).receptionist();
  }

  /** A classic probe subscribed to {@link #KEY} on {@code system}'s receptionist. */
  private static TestKit subscriber(ActorSystem system) {
    TestKit kit = new TestKit(system);
    receptionist(system).tell(Receptionist.subscribe(KEY, Adapter.<Listing>toTyped(kit.getRef())));
    return kit;
  }

  /** @return the first listing the subscriber hears that satisfies {@code p}; fails after {@link #CHANGE} */
  private static Set<ActorRef<String>> awaitListing(TestKit kit, String what, Predicate<Set<ActorRef<String>>> p) {
    Object o = kit.fishForMessage(CHANGE, what, m -> m instanceof Listing l && p.test(l.getServiceInstances(KEY)));
    return ((Listing) o).getServiceInstances(KEY);
  }

  private static Set<Address> nodesOf(Set<ActorRef<String>> instances) {
    return instances.stream().map(r -> r.path().address()).collect(Collectors.toSet());
  }

  private List<ActorSystem> form(String name, int n) {
    return nodes.formInMemory(name, n);
  }

  @Test
  void anInstanceIsListedOnEveryMemberReachableFromThereAndLeavesWhenItStops() {
    List<ActorSystem> s = form("reception", 3);
    TestKit onB = subscriber(s.get(1));
    TestKit onC = subscriber(s.get(2));
    TestKit delivered = new TestKit(s.get(0));
    ActorRef<String> greeter = Adapter.spawn(s.get(0), forwardingTo(delivered.getRef()), "greeter");
    receptionist(s.get(0)).tell(Receptionist.register(KEY, greeter));

    Address a = s.get(0).address();
    Set<ActorRef<String>> seenOnB = awaitListing(onB, "a listing on B with A's greeter", l -> nodesOf(l).equals(Set.of(a)));
    awaitListing(onC, "a listing on C with A's greeter", l -> nodesOf(l).equals(Set.of(a)));
    ActorRef<String> remote = seenOnB.iterator().next();
    assertEquals(greeter.path().toStringWithoutAddress(), remote.path().toStringWithoutAddress(), "the listed ref's path");
    remote.tell("hello from B");
    delivered.expectMsg(CHANGE, "hello from B", "a message sent from B to the listed ref reaches the instance on A");

    s.get(0).stop(Adapter.toClassic(greeter));
    awaitListing(onB, "an empty listing on B once the greeter stopped", Set::isEmpty);
    awaitListing(onC, "an empty listing on C once the greeter stopped", Set::isEmpty);
  }

  @Test
  void instancesOnSeveralMembersAreListedTogetherAndADeregisteredOneLeaves() {
    List<ActorSystem> s = form("together", 3);
    TestKit onC = subscriber(s.get(2));
    TestKit sink = new TestKit(s.get(0));
    ActorRef<String> onA = Adapter.spawn(s.get(0), forwardingTo(sink.getRef()), "greeter");
    ActorRef<String> onB = Adapter.spawn(s.get(1), forwardingTo(new TestKit(s.get(1)).getRef()), "greeter");
    receptionist(s.get(0)).tell(Receptionist.register(KEY, onA));
    receptionist(s.get(1)).tell(Receptionist.register(KEY, onB));
    awaitListing(onC, "both greeters on C", l -> nodesOf(l).equals(Set.of(s.get(0).address(), s.get(1).address())));

    // on A: its own instance and B's, in a listing and then in an answer to find
    TestKit listedOnA = subscriber(s.get(0));
    Set<Address> both = Set.of(s.get(0).address(), s.get(1).address());
    awaitListing(listedOnA, "both greeters on A", l -> nodesOf(l).equals(both));
    receptionist(s.get(0)).tell(Receptionist.find(KEY, Adapter.<Listing>toTyped(listedOnA.getRef())));
    awaitListing(listedOnA, "find on A answering with both greeters", l -> nodesOf(l).equals(both));

    receptionist(s.get(1)).tell(Receptionist.deregister(KEY, onB));
    awaitListing(onC, "only A's greeter on C after B's deregistered", l -> nodesOf(l).equals(Set.of(s.get(0).address())));
  }

  @Test
  void aRemovedMembersInstancesLeaveAndALaterMemberIsToldWhatIsListed() {
    List<ActorSystem> s = form("removal", 2);
    ActorRef<String> onA = Adapter.spawn(s.get(0), forwardingTo(new TestKit(s.get(0)).getRef()), "greeter");
    ActorRef<String> onB = Adapter.spawn(s.get(1), forwardingTo(new TestKit(s.get(1)).getRef()), "greeter");
    receptionist(s.get(0)).tell(Receptionist.register(KEY, onA));
    receptionist(s.get(1)).tell(Receptionist.register(KEY, onB));

    // a third member joins after both registered: it hears both
    ActorSystem c = nodes.start("removal", "in-memory");
    TestKit upOnC = ClusterInMemoryTest.probe(c);
    Cluster.get(c).join(s.get(0).address());
    ClusterInMemoryTest.ups(upOnC, 3);
    TestKit onC = subscriber(c);
    awaitListing(onC, "both greeters on the member that came up later",
        l -> nodesOf(l).equals(Set.of(s.get(0).address(), s.get(1).address())));

    // B leaves the cluster: its greeter (still running) leaves C's listing
    Cluster.get(s.get(1)).leave(s.get(1).address());
    awaitListing(onC, "only A's greeter on C once B is removed", l -> nodesOf(l).equals(Set.of(s.get(0).address())));
  }
}
