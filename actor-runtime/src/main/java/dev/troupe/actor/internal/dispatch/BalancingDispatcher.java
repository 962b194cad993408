package dev.troupe.actor.internal.dispatch;

import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owns a team of actors that share one message queue: its queue, its members, who takes the work.
 *
 * <p>This is {@code type = BalancingDispatcher}: all actors on one such dispatcher form a team
 * that shares ONE user-message queue, so a message sent to any member is processed by whichever
 * member gets to it first. Each member keeps its own {@link Mailbox} for the scheduling status and
 * its system messages (create, stop, supervision), which are never shared; what makes the mailbox
 * a member is its kind, a {@link Membership}.
 *
 * <p>Because any member may process any member's message, <b>all actors on a balancing dispatcher
 * must be of the same kind</b> (same class, interchangeable state), as the routees of a
 * {@code BalancingPool} are. The dispatcher cannot check this; give each kind its own dispatcher
 * id. The mailbox type of the actors is ignored: the shared queue is unbounded.
 *
 * <p>Team work: a send enqueues on the shared queue and schedules the receiver; if the receiver is
 * busy (already scheduled, suspended or stopped), one idle member is scheduled instead, so a busy
 * actor never hoards the work while others idle. A member joins the team with its first system
 * message (Create) and leaves when its actor stops; messages sent to a stopped member go to dead
 * letters, and when the last member leaves, what is still queued goes to dead letters too.
 *
 * <p>Thread roles: {@link #teamWork} runs on any sending thread and reads the member array (a
 * volatile copy-on-write snapshot); joining and leaving are rare and take the team's lock.
 */
public final class BalancingDispatcher extends Dispatcher {

  /** Config value of this kind. */
  public static final String TYPE = "BalancingDispatcher";

  private static final Mailbox[] NO_MEMBERS = new Mailbox[0];

  private final SharedMessageQueue shared = new SharedMessageQueue();
  private final Object lock = new Object();

  /** Copy-on-write under {@link #lock}; volatile so senders see joins and leaves promptly. */
  private volatile Mailbox[] members = NO_MEMBERS;

  /** Whether the executor is another dispatcher's (a pool's team): then that one shuts it down. */
  private final boolean borrowedExecutor;

  BalancingDispatcher(DispatcherSettings settings, ExecutorService executor) {
    super(settings, executor);
    this.borrowedExecutor = false;
  }

  /**
   * A team of its own on another dispatcher's threads, with that dispatcher's throughput and
   * deadline: what a {@code BalancingPool} runs its routees on, so that a pool costs no threads.
   *
   * @param id the team's id (not a config path)
   * @param base the dispatcher whose executor the team's mailboxes run on
   */
  BalancingDispatcher(String id, Dispatcher base) {
    super(id, base);
    this.borrowedExecutor = true;
  }

  /** @return whether this is a pool's team on another dispatcher's executor */
  boolean isPoolTeam() {
    return borrowedExecutor;
  }

  /** A team on a borrowed executor leaves it running: its owner shuts it down. */
  @Override
  public void shutdown() {
    if (!borrowedExecutor) {
      super.shutdown();
    }
  }

  /** Every mailbox of this dispatcher polls the team's queue; {@code type} is ignored. */
  @Override
  public Mailbox newMailbox(MailboxType type) {
    return new Mailbox(shared, this, new Membership(this));
  }

  /**
   * A mailbox's place in the team, and its kind: sends go to the team's queue, a busy receiver
   * hands the work to an idle member, and a closed member leaves the queue to the others.
   */
  static final class Membership extends MailboxKind {
    private final BalancingDispatcher team;
    int state; // guarded by the team's lock (racy reads are hints): 0 new, 1 member, 2 left

    Membership(BalancingDispatcher team) {
      this.team = team;
    }

    @Override
    void enqueue(Mailbox m, Envelope e) {
      if (m.isClosed()) {
        m.owner().deadLetter(e.message, e.sender, false); // a stopped member takes no more team work
      } else {
        team.shared.offer(e); // the team's queue is unbounded
        if (!m.trySchedule(true, false, false)) {
          team.teamWork(m); // the receiver is busy: an idle member takes it instead
        }
      }
    }

    @Override
    void systemEnqueued(Mailbox m) {
      if (state == 0) { // a plain racy read: a hint; register re-checks under the team's lock
        // First system message (Create): join the team only now, so that no member is scheduled
        // for team work before its actor exists (Create is processed before any user message).
        team.register(m, this);
      }
    }

    @Override
    boolean ownsQueue() {
      return false;
    }

    @Override
    void closed(Mailbox m) {
      team.leave(m, this);
    }
  }

  /** Joins the team (idempotent; a member that left never rejoins). */
  private void register(Mailbox m, Membership ms) {
    synchronized (lock) {
      if (ms.state != 0 || m.isClosed()) {
        return;
      }
      ms.state = 1;
      Mailbox[] old = members;
      Mailbox[] grown = Arrays.copyOf(old, old.length + 1);
      grown[old.length] = m;
      members = grown;
    }
  }

  /** Leaves the team: its actor terminated. The last one out dead-letters what is left. */
  private void leave(Mailbox m, Membership ms) {
    boolean last;
    synchronized (lock) {
      if (ms.state != 1) {
        ms.state = 2;
        return;
      }
      ms.state = 2;
      Mailbox[] old = members;
      int i = Arrays.asList(old).indexOf(m);
      Mailbox[] shrunk = new Mailbox[old.length - 1];
      System.arraycopy(old, 0, shrunk, 0, i);
      System.arraycopy(old, i + 1, shrunk, i, old.length - i - 1);
      members = shrunk;
      last = shrunk.length == 0;
    }
    if (last) {
      // Nobody is left to process the team's messages: they are dead letters now. A member that
      // joins later finds the queue empty, as if the messages had been sent to the stopped team.
      Envelope e;
      MailboxOwner o = m.owner();
      while ((e = shared.poll()) != null) {
        o.deadLetter(e.message, e.sender, false);
      }
    } else if (shared.hasMessages()) {
      teamWork(m); // what we might have processed goes to the others
    }
  }

  /**
   * The receiver of a message just enqueued could not be scheduled (it is busy): schedule one idle
   * member, if any. A member that is running needs no help, its post-run re-check reschedules it
   * while the shared queue has messages.
   */
  private void teamWork(Mailbox receiver) {
    Mailbox[] team = members;
    int n = team.length;
    if (n == 0) {
      return;
    }
    // A random start spreads the work without a counter that every sender would write.
    int start = ThreadLocalRandom.current().nextInt(n);
    for (int k = 0; k < n; k++) {
      Mailbox buddy = team[(start + k) % n];
      if (buddy != receiver && buddy.trySchedule(true, false, false)) {
        return;
      }
    }
  }

  /** @return how many actors are in the team now (for tests) */
  int teamSize() {
    return members.length;
  }
}
