package dev.troupe.actor.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinTask;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.vm.VM;

/**
 * Checks what a dispatcher kind costs a mailbox: a shared kind for plain ones, its own otherwise.
 *
 * <p>A plain mailbox pays for its kind with one reference and no object of its own; the kinds that
 * keep state per mailbox (a team membership, a thread) get theirs when the mailbox is created.
 */
class MailboxKindTest {
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  @AfterEach
  void shutdown() {
    executor.shutdownNow();
  }

  private static DispatcherSettings settings(String type) {
    return new DispatcherSettings(
        "test", type, "fork-join-executor", 5, Duration.ZERO, ConfigFactory.empty());
  }

  @Test
  void plainMailboxesShareOneKindAndStatefulKindsGiveEachMailboxItsOwn() {
    Dispatcher plain = new Dispatcher(settings(Dispatcher.TYPE), executor);
    MailboxType unbounded = new MailboxType.Unbounded();
    Mailbox a = plain.newMailbox(unbounded);
    Mailbox b = plain.newMailbox(unbounded);
    assertSame(MailboxKind.OwnQueue.STATELESS, a.kind(), "a plain mailbox has the stateless kind");
    assertSame(a.kind(), b.kind(), "two plain mailboxes have one kind object");

    BalancingDispatcher team = new BalancingDispatcher(settings(BalancingDispatcher.TYPE), executor);
    Mailbox m1 = team.newMailbox(unbounded);
    Mailbox m2 = team.newMailbox(unbounded);
    assertTrue(m1.kind() instanceof BalancingDispatcher.Membership, "team mailbox kind: " + m1.kind());
    assertNotSame(m1.kind(), m2.kind(), "each member has its own place in the team");
    assertSame(m1.queue(), m2.queue(), "members share the team's queue");

    PinnedDispatcher pinned = new PinnedDispatcher(settings(PinnedDispatcher.TYPE), "test", true, (t, e) -> {});
    Mailbox p = pinned.newMailbox(unbounded);
    assertTrue(p.kind() instanceof PinnedDispatcher.PinnedThread, "pinned mailbox kind: " + p.kind());
    assertSame(p, ((PinnedDispatcher.PinnedThread) p.kind()).mailbox, "the thread runs its own mailbox");
    assertNotSame(p.kind(), pinned.newMailbox(unbounded).kind(), "each pinned mailbox has its own thread");
  }

  /**
   * The budget is what a mailbox needs today: the queue, dispatcher, kind, owner, system stack
   * and prepended references and the status and affinity ints, after ForkJoinTask's own fields,
   * rounded up to the object alignment. A field that fits in the alignment gap is free.
   */
  @Test
  void aMailboxIsNoLargerThanItsBudgetOfSixReferencesAndTwoInts() {
    ClassLayout mailbox = ClassLayout.parseClass(Mailbox.class);
    long taskEnd = ClassLayout.parseClass(ForkJoinTask.class).fields().stream()
        .mapToLong(f -> f.offset() + f.size())
        .max()
        .orElse(VM.current().objectHeaderSize());
    long ref = VM.current().sizeOfField("java.lang.Object");
    long align = VM.current().objectAlignment();
    long budget = (taskEnd + 6 * ref + 2 * Integer.BYTES + align - 1) / align * align;
    assertTrue(
        mailbox.instanceSize() <= budget,
        "a mailbox is " + mailbox.instanceSize() + " bytes, over its budget of " + budget
            + "; every idle actor pays for it\n" + mailbox.toPrintable());
  }
}
