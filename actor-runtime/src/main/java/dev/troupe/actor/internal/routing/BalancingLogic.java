package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.actor.internal.dispatch.MailboxLookup;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.Routee;

/**
 * Owns {@code BalancingPool}'s choice: the first member of the routees' team that has not stopped.
 *
 * <p>The routees are the members of one {@code BalancingDispatcher} team and share its message
 * queue, so a message sent to any member is work for the whole team; the team schedules an idle
 * member when the receiver is busy (see {@code BalancingDispatcher}). The logic only has to pick
 * a member that has not stopped, since a stopped member dead-letters what it is sent: the first
 * live one in routee order, so that under light load one warm member does the work and others
 * join only when it is busy.
 *
 * <p>No per-message bookkeeping: a routed message is one envelope on the team's queue.
 */
final class BalancingLogic implements RoutingLogic {
  private final MailboxLookup mailboxes;
  private final Runnable release;

  /**
   * @param mailboxes finds a routee's mailbox
   * @param release run once when the router stops: forgets the team (its members have stopped)
   */
  BalancingLogic(MailboxLookup mailboxes, Runnable release) {
    this.mailboxes = mailboxes;
    this.release = release;
  }

  /** The routees' mailboxes, index for index (null for a routee that is not a local actor). */
  @Override
  public Object prepare(Routee[] routees, Object previous) {
    Mailbox[] boxes = new Mailbox[routees.length];
    for (int i = 0; i < routees.length; i++) {
      if (routees[i] instanceof ActorRefRoutee a) {
        boxes[i] = mailboxes.mailboxOf(a.ref());
      }
    }
    return boxes;
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    Mailbox[] boxes = (Mailbox[]) prepared;
    for (int i = 0; i < routees.length; i++) {
      Mailbox m = boxes[i];
      if (m == null || !m.isClosed()) {
        routees[i].send(message, sender);
        return;
      }
    }
    routees[0].send(message, sender); // every member stopped: a dead letter, from the routee
  }

  @Override
  public void stopped() {
    release.run();
  }
}
