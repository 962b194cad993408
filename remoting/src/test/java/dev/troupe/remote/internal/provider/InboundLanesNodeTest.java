package dev.troupe.remote.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.remote.Dropped;
import dev.troupe.remote.internal.association.Association;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.serialization.Serializer;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes on loopback, the receiving one (b) with four inbound lanes: messages are deserialized
 * off the network threads and every sender-recipient pair keeps its order under many senders and
 * recipients; a message that cannot be deserialized is dropped alone; a full lane stops its
 * connection's reading while the control lane still serves watches, and loses nothing; what waits
 * on a lane is delivered after its connection closed; and once traffic ends, no lane has a run
 * scheduled.
 */
class InboundLanesNodeTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int FAIL = -1; // a sender id that the serializer refuses to read
  private static final int BLOCK = -2; // a sender id whose reading waits for the test's latch
  private static final int LIMIT = 50; // inbound-lane-queue-size on node b
  private static final int PAD = 1024;

  /** What crosses: a sender's id, its sequence number, and padding to make frames bigger. */
  public record Numbered(int sender, int seq, int pad) {}

  static volatile CountDownLatch unblock = new CountDownLatch(0);
  static volatile String readOnNetworkThread;

  /** {@link Numbered} as 12 bytes and padding; refuses {@link #FAIL}, waits at {@link #BLOCK}. */
  public static final class NumberedSerializer implements Serializer {
    @Override
    public int identifier() {
      return 1717;
    }

    @Override
    public String manifest(Object o) {
      return "";
    }

    @Override
    public byte[] toBinary(Object o) {
      Numbered n = (Numbered) o;
      return ByteBuffer.allocate(12 + n.pad()).putInt(n.sender()).putInt(n.seq()).putInt(n.pad()).array();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      if (Thread.currentThread().getName().contains("-remote-io")) {
        readOnNetworkThread = Thread.currentThread().getName();
      }
      ByteBuffer b = ByteBuffer.wrap(bytes);
      Numbered n = new Numbered(b.getInt(), b.getInt(), b.getInt());
      if (n.sender() == FAIL) {
        throw new IllegalArgumentException("refused by the test");
      }
      if (n.sender() == BLOCK) {
        try {
          unblock.await(60, TimeUnit.SECONDS); // bounded: a failing test does not hang the build
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return n;
    }
  }

  /** Checks that each sender's numbers arrive 0, 1, 2, ...; tells the probe of a gap, and when all arrived. */
  static final class Checker extends AbstractActor {
    private final ActorRef probe;
    private final int expected;
    private final Map<Integer, Integer> next = new HashMap<>();
    private int received;

    Checker(ActorRef probe, int expected) {
      this.probe = probe;
      this.expected = expected;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(
              Numbered.class,
              n -> {
                if (n.sender() < 0) {
                  return;
                }
                int want = next.getOrDefault(n.sender(), 0);
                if (n.seq() != want) {
                  probe.tell("gap at " + getSelf().path().name() + " from " + n.sender() + ": expected " + want + ", got " + n.seq(), getSelf());
                }
                next.put(n.sender(), n.seq() + 1);
                if (++received == expected) {
                  probe.tell("done:" + getSelf().path().name(), getSelf());
                }
              })
          .build();
    }
  }

  /** Does nothing but live. */
  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @RegisterExtension
  final ActorSystemExtension troupe =
      ActorSystemExtension.perMethod(
          "troupe.actor.provider = remote\n"
              + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
              + "troupe.remote.canonical.port = 0\n"
              + "troupe.serialization.serializers.lane-test = \"" + NumberedSerializer.class.getName() + "\"\n"
              + "troupe.serialization.bindings { \"" + Numbered.class.getName() + "\" = lane-test }\n");

  private ActorSystem a;
  private ActorSystem b;

  @BeforeEach
  void nodes() {
    unblock = new CountDownLatch(1);
    readOnNetworkThread = null;
  }

  @AfterEach
  void release() {
    unblock.countDown();
  }

  private void start(String bConfig) {
    b = troupe.createSystem("troupe.remote.advanced.inbound-lanes = 4\n" + bConfig);
    a = troupe.createSystem("");
  }

  private static RemoteActorRefProvider provider(ActorSystem s) {
    return (RemoteActorRefProvider) ((RuntimeSystem) s).provider();
  }

  private List<InboundLane<?>> lanes() {
    InboundLanes<?> l = provider(b).inboundLanes();
    assertNotNull(l, "node b hands off to lanes");
    List<InboundLane<?>> all = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      all.add(l.lane(i));
    }
    return all;
  }

  private void await(String what, Supplier<Boolean> condition) {
    new TestKit(b).awaitCond(WAIT, Duration.ofMillis(10), "not within " + WAIT + ": " + what, condition);
  }

  private void awaitLanesIdle() {
    await(
        "every lane empty, none holding a connection, no run scheduled",
        () -> lanes().stream().allMatch(l -> l.waiting() == 0 && l.heldConnections() == 0 && !l.scheduled()));
  }

  /** {@code name} on b, as a ref on a. */
  private ActorRef remote(String name) {
    return a.actorSelection(b.address() + "/user/" + name).resolveOne(WAIT).toCompletableFuture().join();
  }

  /**
   * 6 sending threads x 12 recipients x 300 messages (21,600): each recipient sees each sender's
   * numbers in order, none is lost, none was deserialized on a network thread, and the lanes go idle.
   */
  @Test
  void manySendersAndRecipientsKeepEveryPairsOrderAndLoseNothing() throws Exception {
    start("");
    int senders = 6;
    int recipients = 12;
    int each = 300;
    TestKit probe = new TestKit(b);
    List<ActorRef> refs = new ArrayList<>();
    for (int r = 0; r < recipients; r++) {
      b.actorOf(Props.create(Checker.class, () -> new Checker(probe.getRef(), senders * each)), "r-" + r);
      refs.add(remote("r-" + r));
    }
    ExecutorService threads = Executors.newFixedThreadPool(senders);
    try {
      for (int s = 0; s < senders; s++) {
        int id = s;
        threads.execute(
            () -> {
              for (int i = 0; i < each; i++) {
                for (ActorRef r : refs) {
                  r.tell(new Numbered(id, i, 0), ActorRef.noSender());
                }
              }
            });
      }
      for (int r = 0; r < recipients; r++) {
        Object m = probe.expectMsgClass(WAIT, String.class);
        assertTrue(((String) m).startsWith("done:"), String.valueOf(m));
      }
    } finally {
      threads.shutdownNow();
    }
    assertEquals(null, readOnNetworkThread, "a user message was deserialized on a network thread");
    awaitLanesIdle();
    probe.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aMessageThatCannotBeDeserializedIsDroppedAndTheNextIsDelivered() {
    start("");
    TestKit probe = new TestKit(b);
    TestKit drops = new TestKit(b);
    b.eventStream().subscribe(drops.getRef(), Dropped.class);
    b.actorOf(Props.create(Checker.class, () -> new Checker(probe.getRef(), 2)), "r");
    ActorRef r = remote("r");
    r.tell(new Numbered(0, 0, 0), ActorRef.noSender());
    r.tell(new Numbered(FAIL, 0, 0), ActorRef.noSender());
    r.tell(new Numbered(0, 1, 0), ActorRef.noSender());
    Dropped d = drops.expectMsgClass(WAIT, Dropped.class);
    assertTrue(d.reason().contains("cannot deserialize") && d.reason().contains("refused by the test"), d.reason());
    probe.expectMsg(WAIT, "done:r");
    awaitLanesIdle();
  }

  /**
   * A lane whose deserialization is stuck fills to its bound: the connection stops reading (the
   * lane holds at most a bound and one read's frames), a watch still crosses the control lane both
   * ways, and once unstuck every message arrives, in order.
   */
  @Test
  void aFullLaneStopsItsConnectionReadingTheControlLaneServesOnAndNothingIsLost() {
    start("troupe.remote.advanced.inbound-lane-queue-size = " + LIMIT + "\n");
    int n = 1500;
    TestKit probe = new TestKit(b);
    b.actorOf(Props.create(Checker.class, () -> new Checker(probe.getRef(), n)), "slow");
    ActorRef victimOnB = b.actorOf(Props.create(Idle.class, Idle::new), "victim");
    ActorRef slow = remote("slow");
    ActorRef victim = remote("victim");

    slow.tell(new Numbered(BLOCK, 0, 0), ActorRef.noSender());
    for (int i = 0; i < n; i++) {
      slow.tell(new Numbered(0, i, PAD), ActorRef.noSender());
    }
    await("a lane holds the connection back", () -> lanes().stream().anyMatch(l -> l.heldConnections() > 0));
    int waiting = lanes().stream().mapToInt(InboundLane::waiting).sum();
    assertTrue(waiting <= LIMIT + 70, "reading stopped near the bound (64 KiB of 1 KiB frames past it at most): " + waiting + " wait");

    TestKit watcher = new TestKit(a);
    watcher.watch(victim);
    victimOnB.tell(PoisonPill.getInstance(), ActorRef.noSender());
    Terminated t = watcher.expectMsgClass(WAIT, Terminated.class);
    assertEquals(victim.path(), t.actor().path(), "the control lane served the watch while the ordinary one waited");
    assertTrue(lanes().stream().anyMatch(l -> l.heldConnections() > 0), "still held: the lane is stuck");

    unblock.countDown();
    Object m = probe.expectMsgClass(WAIT, String.class);
    assertEquals("done:slow", m, "all " + n + " delivered, in order");
    awaitLanesIdle();
  }

  /** Messages read before their connection closed still reach their recipient. */
  @Test
  void whatWaitsOnALaneIsDeliveredAfterItsConnectionClosed() {
    start("");
    int n = 300;
    TestKit probe = new TestKit(b);
    b.actorOf(Props.create(Checker.class, () -> new Checker(probe.getRef(), n)), "r");
    ActorRef r = remote("r");
    r.tell(new Numbered(BLOCK, 0, 0), ActorRef.noSender());
    for (int i = 0; i < n; i++) {
      r.tell(new Numbered(0, i, 0), ActorRef.noSender());
    }
    await( // the stuck one counts until its run ends
        "all " + n + " read onto the lane", () -> lanes().stream().mapToInt(InboundLane::waiting).sum() == n + 1);
    TestKit.shutdownActorSystem(a);
    await(
        "b saw a's connections close",
        () -> {
          Association as = provider(b).associations().existing(a.address());
          return as == null || !as.associated();
        });
    assertFalse(lanes().stream().allMatch(l -> l.waiting() == 0), "the messages still wait");
    unblock.countDown();
    probe.expectMsg(WAIT, "done:r");
    awaitLanesIdle();
  }
}
