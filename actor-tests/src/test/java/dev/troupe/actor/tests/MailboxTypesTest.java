package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.UntypedActorWithStash;
import dev.troupe.dispatch.BoundedStablePriorityMailbox;
import dev.troupe.dispatch.ControlMessage;
import dev.troupe.dispatch.UnboundedStablePriorityMailbox;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mailbox types of {@code dev.troupe.dispatch} beyond the default and bounded ones: control
 * messages first, stable priority (unbounded and bounded), the deque mailbox with the stash, and
 * how each is named in config. The many-sender stress is {@link MailboxTypesStressTest}.
 */
class MailboxTypesTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** A control message of the tests. */
  record Ctl(int n) implements ControlMessage {}

  /** A message with a priority, smaller first; {@code n} is its send index. */
  record Prio(int priority, int n) {}

  /** Orders {@link Prio} by priority; anything else after them. */
  static int priorityOf(Object m) {
    return m instanceof Prio p ? p.priority() : Integer.MAX_VALUE;
  }

  /** The unbounded priority mailbox of the tests. */
  public static final class ByPriority extends UnboundedStablePriorityMailbox {
    public ByPriority() {
      super(Comparator.comparingInt(MailboxTypesTest::priorityOf));
    }
  }

  /** The bounded priority mailbox of the tests. */
  public static final class BoundedByPriority extends BoundedStablePriorityMailbox {
    public BoundedByPriority() {
      super(Comparator.comparingInt(MailboxTypesTest::priorityOf));
    }
  }

  /** Not a mailbox at all. */
  public static final class NotAMailbox {
    public NotAMailbox() {}
  }

  /** Blocks on "block" until released; forwards everything else to a target, in processing order. */
  static final class Gate extends UntypedActor {
    private final CountDownLatch entered;
    private final CountDownLatch release;
    private final ActorRef target;

    Gate(CountDownLatch entered, CountDownLatch release, ActorRef target) {
      this.entered = entered;
      this.release = release;
      this.target = target;
    }

    @Override
    public void onReceive(Object message) throws Exception {
      if ("block".equals(message)) {
        entered.countDown();
        assertTrue(release.await(RuntimeFixtures.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "gate never released");
      } else {
        target.tell(message, getSelf());
      }
    }
  }

  static final String MAILBOXES = ""
      + "gate-dispatcher { executor = thread-pool-executor\n"
      + "  thread-pool-executor { core-pool-size-min = 2, core-pool-size-max = 2, max-pool-size-min = 2, max-pool-size-max = 2 } }\n"
      + "control-mailbox { mailbox-type = \"dev.troupe.dispatch.UnboundedControlAwareMailbox\" }\n"
      + "control-alias-mailbox { mailbox-type = unbounded-control-aware }\n"
      + "deque-mailbox { mailbox-type = \"dev.troupe.dispatch.UnboundedDequeMailbox\" }\n"
      + "deque-alias-mailbox { mailbox-type = unbounded-deque }\n"
      + "prio-mailbox { mailbox-type = \"" + ByPriority.class.getName() + "\" }\n"
      + "bounded-prio-mailbox { mailbox-type = \"" + BoundedByPriority.class.getName() + "\"\n"
      + "  mailbox-capacity = 10, mailbox-push-timeout-time = 0s }\n"
      + "waiting-prio-mailbox { mailbox-type = \"" + BoundedByPriority.class.getName() + "\"\n"
      + "  mailbox-capacity = 2, mailbox-push-timeout-time = 10s }\n";

  /** A kit that receives the system's dead letters. */
  private static TestKit deadLetters(ActorSystem sys) {
    TestKit dead = new TestKit(sys);
    sys.eventStream().subscribe(dead.getRef(), DeadLetter.class);
    return dead;
  }

  /** A gate on the test dispatcher with {@code mailbox}, already blocked in its first message. */
  private static ActorRef blockedGate(ActorSystem sys, TestKit kit, String mailbox, CountDownLatch release)
      throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    ActorRef gate = sys.actorOf(Props.create(Gate.class, entered, release, kit.getRef())
        .withDispatcher("gate-dispatcher").withMailbox(mailbox));
    gate.tell("block", ActorRef.noSender());
    assertTrue(entered.await(RuntimeFixtures.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the gate never blocked");
    return gate;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"control-mailbox", "control-alias-mailbox"})
  void controlMessagesJumpTheQueueAndEachGroupKeepsItsOrder(String mailbox) throws Exception {
    ActorSystem sys = troupe.createSystem(MAILBOXES);
    TestKit kit = new TestKit(sys);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef gate = blockedGate(sys, kit, mailbox, release);
    List<Object> expectedControl = new ArrayList<>();
    List<Object> expectedOrdinary = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      if (i % 5 == 2) {
        gate.tell(new Ctl(i), ActorRef.noSender());
        expectedControl.add(new Ctl(i));
      } else {
        gate.tell(i, ActorRef.noSender());
        expectedOrdinary.add(i);
      }
    }
    release.countDown();
    List<Object> expected = new ArrayList<>(expectedControl);
    expected.addAll(expectedOrdinary);
    assertEquals(expected, kit.receiveN(100), "control messages first, each group in send order");
    // once the queue is empty, a control message is simply the next one
    gate.tell(new Ctl(1000), ActorRef.noSender());
    kit.expectMsg(new Ctl(1000));
  }

  @Test
  void aPriorityMailboxDeliversByPriorityAndEqualPrioritiesInSendOrder() throws Exception {
    ActorSystem sys = troupe.createSystem(MAILBOXES);
    TestKit kit = new TestKit(sys);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef gate = blockedGate(sys, kit, "prio-mailbox", release);
    Random random = new Random(42);
    List<Prio> sent = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Prio p = new Prio(random.nextInt(4), i); // many equal priorities: stability matters
      sent.add(p);
      gate.tell(p, ActorRef.noSender());
    }
    gate.tell("last", ActorRef.noSender()); // not a Prio: after all of them
    release.countDown();
    List<Object> expected = new ArrayList<>(sent);
    expected.sort(Comparator.comparingInt(MailboxTypesTest::priorityOf)); // List.sort is stable
    expected.add("last");
    assertEquals(expected, kit.receiveN(301), "priority order, send order within a priority");
  }

  @Test
  void aFullBoundedPriorityMailboxSendsTheOverflowToDeadLetters() throws Exception {
    ActorSystem sys = troupe.createSystem(MAILBOXES);
    TestKit kit = new TestKit(sys);
    TestKit dead = deadLetters(sys);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef gate = blockedGate(sys, kit, "bounded-prio-mailbox", release);
    for (int i = 0; i < 15; i++) {
      gate.tell(new Prio(15 - i, i), ActorRef.noSender()); // never blocks: push timeout 0
    }
    for (int i = 10; i < 15; i++) {
      DeadLetter d = dead.expectMsgClass(DeadLetter.class);
      assertEquals(new Prio(15 - i, i), d.message(), "the overflow, in send order, goes to dead letters");
      assertEquals(gate, d.recipient());
    }
    release.countDown();
    List<Object> expected = new ArrayList<>();
    for (int i = 9; i >= 0; i--) {
      expected.add(new Prio(15 - i, i));
    }
    assertEquals(expected, kit.receiveN(10), "the ten that fit, by priority");
    dead.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void aSenderWaitsForRoomInAFullBoundedPriorityMailbox() throws Exception {
    ActorSystem sys = troupe.createSystem(MAILBOXES);
    TestKit kit = new TestKit(sys);
    TestKit dead = deadLetters(sys);
    CountDownLatch release = new CountDownLatch(1);
    ActorRef gate = blockedGate(sys, kit, "waiting-prio-mailbox", release);
    gate.tell(new Prio(5, 0), ActorRef.noSender());
    gate.tell(new Prio(5, 1), ActorRef.noSender());
    CountDownLatch sent = new CountDownLatch(1);
    Thread sender = new Thread(() -> {
      gate.tell(new Prio(0, 2), ActorRef.noSender()); // waits: the mailbox is full
      sent.countDown();
    }, "waiting-sender");
    sender.start();
    kit.awaitCond("the sender to wait for room",
        () -> sender.getState() == Thread.State.TIMED_WAITING || sender.getState() == Thread.State.WAITING);
    assertEquals(1, sent.getCount(), "a send into a full mailbox returned before there was room");
    release.countDown();
    assertTrue(sent.await(RuntimeFixtures.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the waiting send never completed");
    List<Object> got = kit.receiveN(3);
    assertTrue(got.containsAll(List.of(new Prio(5, 0), new Prio(5, 1), new Prio(0, 2))), got.toString());
    dead.expectNoMessage(Duration.ofMillis(100));
  }

  /** Stashes everything until "open", then unstashes all and forwards in processing order. */
  static final class Stasher extends UntypedActorWithStash {
    private final ActorRef target;
    private boolean open;

    Stasher(ActorRef target) {
      this.target = target;
    }

    @Override
    public void onReceive(Object message) {
      if ("open".equals(message)) {
        open = true;
        unstashAll();
      } else if (!open) {
        stash();
      } else {
        target.tell(message, getSelf());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"deque-mailbox", "deque-alias-mailbox", "control-mailbox", "prio-mailbox"})
  void unstashAllPutsTheStashedMessagesBackInFrontInOrder(String mailbox) {
    ActorSystem sys = troupe.createSystem(MAILBOXES);
    TestKit kit = new TestKit(sys);
    ActorRef stasher = sys.actorOf(Props.create(Stasher.class, kit.getRef()).withMailbox(mailbox));
    for (int i = 0; i < 50; i++) {
      stasher.tell(i, ActorRef.noSender());
    }
    stasher.tell("open", ActorRef.noSender());
    for (int i = 50; i < 100; i++) {
      stasher.tell(i, ActorRef.noSender());
    }
    List<Object> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add(i);
    }
    assertEquals(expected, kit.receiveN(100), "stashed messages first, in order, then the later ones");
  }

  @Test
  void aMailboxClassThatIsNoMailboxIsAConfigurationExceptionNamingTheKey() {
    ActorSystem sys = troupe.createSystem("odd-mailbox { mailbox-type = \"" + NotAMailbox.class.getName() + "\" }\n"
        + "abstract-mailbox { mailbox-type = \"" + UnboundedStablePriorityMailbox.class.getName() + "\" }\n"
        + "missing-mailbox { mailbox-type = \"com.example.NoSuchMailbox\" }\n"
        + "unbounded-bounded-mailbox { mailbox-type = \"" + BoundedByPriority.class.getName() + "\" }\n");
    for (String[] c : new String[][] {
        {"odd-mailbox", "must extend"},
        {"abstract-mailbox", "public no-argument constructor"},
        {"missing-mailbox", "unknown mailbox type 'com.example.NoSuchMailbox'"},
        {"unbounded-bounded-mailbox", "unbounded-bounded-mailbox.mailbox-capacity"}}) {
      ConfigurationException e = assertThrows(ConfigurationException.class,
          () -> sys.actorOf(Props.create(Gate.class, null, null, null).withMailbox(c[0])), c[0]);
      assertTrue(e.getMessage().contains(c[0]), e.getMessage());
      assertTrue(e.getMessage().contains(c[1]), e.getMessage());
    }
  }
}
