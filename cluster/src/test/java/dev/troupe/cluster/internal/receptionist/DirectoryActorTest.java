package dev.troupe.cluster.internal.receptionist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One directory against a membership driven by hand, its peers' directories and its receptionist
 * played by probes: the exchange when a member comes up, updates after each local change, what a
 * peer's messages may and may not do (from a node not seen up, past the bounds), and the removal of a
 * member's instances.
 */
class DirectoryActorTest {
  private static final Duration QUIET = Duration.ofMillis(300);
  private static final String SVC = "x.Msg#svc";

  private ActorSystem system;
  private final Map<Address, TestKit> peers = new ConcurrentHashMap<>();
  private ActorRef directory;
  private TestKit receptionist;
  private ActorRef a;
  private ActorRef b;

  private static UniqueAddress node(int i) {
    return new UniqueAddress(Address.remote("sys", "127.0.0." + i, 2552), i);
  }

  private static Member member(int i) {
    return new Member(node(i), MemberStatus.UP, Set.of(), i);
  }

  /** Node 1, whose peers' directories are the probes; events are told to the directory by hand. */
  private DirectoryActor.Membership membership() {
    return new DirectoryActor.Membership() {
      @Override
      public UniqueAddress self() {
        return node(1);
      }

      @Override
      public void subscribe(ActorRef d) {}

      @Override
      public void unsubscribe(ActorRef d) {}

      @Override
      public ActorRef directoryOf(Address n) {
        return peers.get(n).getRef();
      }
    };
  }

  @BeforeEach
  void start() {
    system = ActorSystem.create("directory");
    for (int i = 2; i <= 3; i++) {
      peers.put(node(i).address(), new TestKit(system));
    }
    DirectoryActor.Membership membership = membership();
    directory = system.actorOf(Props.create(DirectoryActor.class, () -> new DirectoryActor(membership)), "directory");
    receptionist = new TestKit(system);
    a = new TestKit(system).getRef();
    b = new TestKit(system).getRef();
    directory.tell(new ServiceDirectory.Attach(receptionist.getRef()), ActorRef.noSender());
  }

  @AfterEach
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  private void up(int i) {
    directory.tell(new ClusterEvent.MemberUp(member(i)), ActorRef.noSender());
  }

  private TestKit peer(int i) {
    return peers.get(node(i).address());
  }

  private ServiceDirectory.RemoteInstances heard() {
    return receptionist.expectMsgClass(ServiceDirectory.RemoteInstances.class);
  }

  @Test
  void withARoleOnlyTheMembersWithItAreTalkedTo() {
    DirectoryActor.Membership membership = membership();
    ActorRef chat = system.actorOf(Props.create(DirectoryActor.class,
        () -> new DirectoryActor(membership, java.util.Optional.of("chat"))), "chat-directory");
    chat.tell(new ClusterEvent.MemberUp(member(2)), ActorRef.noSender()); // no role
    chat.tell(new ClusterEvent.MemberUp(new Member(node(3), MemberStatus.UP, Set.of("chat"), 3)), ActorRef.noSender());
    assertEquals(new Protocol.State(node(1), true, Map.of()), peer(3).expectMsgClass(Protocol.State.class));
    chat.tell(new ServiceDirectory.LocalInstances(SVC, Set.of(a)), ActorRef.noSender());
    assertEquals(new Protocol.Update(node(1), SVC, Set.of(a)), peer(3).expectMsgClass(Protocol.Update.class));
    peer(2).expectNoMessage(QUIET); // the member without the role runs no directory: nothing is sent there
  }

  @Test
  void aMemberThatComesUpGetsThisNodesStateAndItsOwnIsListedAndAnsweredOnce() {
    directory.tell(new ServiceDirectory.LocalInstances(SVC, Set.of(a)), ActorRef.noSender());
    up(2);
    Protocol.State sent = peer(2).expectMsgClass(Protocol.State.class);
    assertEquals(new Protocol.State(node(1), true, Map.of(SVC, Set.of(a))), sent, "all of this node's instances, asking for theirs");

    directory.tell(new Protocol.State(node(2), true, Map.of(SVC, Set.of(b))), peer(2).getRef());
    assertEquals(new ServiceDirectory.RemoteInstances(SVC, Set.of(b)), heard());
    assertEquals(new Protocol.State(node(1), false, Map.of(SVC, Set.of(a))), peer(2).expectMsgClass(Protocol.State.class),
        "an answer that asks for none in return");
    directory.tell(new Protocol.State(node(2), false, Map.of(SVC, Set.of(b))), peer(2).getRef());
    peer(2).expectNoMessage(QUIET);
    receptionist.expectNoMessage(QUIET); // the same state again changes nothing
  }

  @Test
  void aLocalChangeGoesToEveryMemberUpAndNothingWhenItChangesNothing() {
    up(2);
    up(3);
    peer(2).expectMsgClass(Protocol.State.class);
    peer(3).expectMsgClass(Protocol.State.class);
    directory.tell(new ServiceDirectory.LocalInstances(SVC, Set.of(a, b)), ActorRef.noSender());
    Protocol.Update u = new Protocol.Update(node(1), SVC, Set.of(a, b));
    assertEquals(u, peer(2).expectMsgClass(Protocol.Update.class));
    assertEquals(u, peer(3).expectMsgClass(Protocol.Update.class));
    directory.tell(new ServiceDirectory.LocalInstances(SVC, Set.of(a, b)), ActorRef.noSender());
    directory.tell(new ServiceDirectory.LocalInstances("x.Msg#never", Set.of()), ActorRef.noSender());
    peer(2).expectNoMessage(QUIET);

    String tooLong = "x".repeat(Protocol.MAX_NAME + 1);
    directory.tell(new ServiceDirectory.LocalInstances(tooLong, Set.of(a)), ActorRef.noSender());
    peer(2).expectNoMessage(QUIET); // listed on this node only: the wire would refuse the name
  }

  @Test
  void aReceptionistThatAttachesAgainStartsAfreshAndTheLastOnesInstancesAreWithdrawn() {
    up(2);
    peer(2).expectMsgClass(Protocol.State.class);
    directory.tell(new ServiceDirectory.LocalInstances(SVC, Set.of(a)), ActorRef.noSender());
    assertEquals(new Protocol.Update(node(1), SVC, Set.of(a)), peer(2).expectMsgClass(Protocol.Update.class));
    directory.tell(new Protocol.Update(node(2), SVC, Set.of(b)), peer(2).getRef());
    assertEquals(Set.of(b), heard().instances());

    TestKit restarted = new TestKit(system);
    directory.tell(new ServiceDirectory.Attach(restarted.getRef()), ActorRef.noSender());
    assertEquals(new Protocol.Update(node(1), SVC, Set.of()), peer(2).expectMsgClass(Protocol.Update.class),
        "the instances the last receptionist told are withdrawn from the other members");
    assertEquals(new ServiceDirectory.RemoteInstances(SVC, Set.of(b)),
        restarted.expectMsgClass(ServiceDirectory.RemoteInstances.class), "the new one hears what the others list");
  }

  @Test
  void aPeerNotSeenUpIsIgnoredAndARemovedMembersInstancesLeave() {
    directory.tell(new Protocol.State(node(2), false, Map.of(SVC, Set.of(b))), peer(2).getRef());
    directory.tell(new Protocol.Update(node(2), SVC, Set.of(b)), peer(2).getRef());
    receptionist.expectNoMessage(QUIET);

    up(2);
    up(3);
    directory.tell(new Protocol.Update(node(2), SVC, Set.of(b)), peer(2).getRef());
    assertEquals(Set.of(b), heard().instances());
    directory.tell(new Protocol.Update(node(3), SVC, Set.of(a)), peer(3).getRef());
    assertEquals(Set.of(a, b), heard().instances(), "both members' instances, together");

    directory.tell(new ClusterEvent.MemberRemoved(member(2), MemberStatus.UP), ActorRef.noSender());
    assertEquals(Set.of(a), heard().instances(), "the removed member's instance leaves");
    directory.tell(new Protocol.Update(node(2), SVC, Set.of(b)), peer(2).getRef());
    receptionist.expectNoMessage(QUIET); // a removed member's late update changes nothing
  }

  @Test
  void aPeerCannotMakeThisNodeKeepMoreServicesOrInstancesThanTheBounds() {
    up(2);
    for (int i = 0; i < Protocol.MAX_SERVICES + 10; i++) {
      directory.tell(new Protocol.Update(node(2), "x.Msg#" + i, Set.of(b)), peer(2).getRef());
    }
    // the removal of the first service is the last thing told: everything before it has been handled
    directory.tell(new Protocol.Update(node(2), "x.Msg#0", Set.of()), peer(2).getRef());
    int listed = 0;
    while (true) {
      ServiceDirectory.RemoteInstances r =
          receptionist.expectMsgClass(Duration.ofSeconds(10), ServiceDirectory.RemoteInstances.class);
      if (r.instances().isEmpty()) {
        assertEquals("x.Msg#0", r.service(), "the one removal sent");
        break;
      }
      listed++;
    }
    assertEquals(Protocol.MAX_SERVICES, listed, "updates past the bound are dropped");

    // nor more instances in all: one service may not take the member past the bound
    Set<ActorRef> many = new java.util.HashSet<>();
    for (int i = 0; i < Protocol.MAX_INSTANCES; i++) {
      many.add(new TestKit(system).getRef());
    }
    directory.tell(new Protocol.Update(node(2), "x.Msg#1", many), peer(2).getRef()); // 1022 others + 2048 > bound
    directory.tell(new Protocol.Update(node(2), "x.Msg#1", Set.of()), peer(2).getRef());
    ServiceDirectory.RemoteInstances next = heard();
    assertEquals(new ServiceDirectory.RemoteInstances("x.Msg#1", Set.of()), next,
        "the oversized update was dropped; the withdrawal after it is the next thing heard");
  }
}
