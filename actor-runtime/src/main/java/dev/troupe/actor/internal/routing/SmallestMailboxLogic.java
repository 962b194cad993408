package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.actor.internal.dispatch.MailboxLookup;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.Routee;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Owns {@code SmallestMailboxPool}'s choice: the least loaded routee by O(1) mailbox hints.
 *
 * <p>It never walks a queue: an idle routee with an empty mailbox (taken at once), else one with
 * an empty mailbox, else the smallest size hint (0 or 1 for unbounded mailboxes, which keep no
 * count, so ties are likely and go to the first found). Routees without a visible mailbox (not
 * local) and closed mailboxes come last. The scan starts at a random routee so that ties spread.
 * The mailboxes are looked up once per routee set.
 */
final class SmallestMailboxLogic implements RoutingLogic {
  private final MailboxLookup mailboxes;

  /** @param mailboxes finds a routee's mailbox */
  SmallestMailboxLogic(MailboxLookup mailboxes) {
    this.mailboxes = mailboxes;
  }

  @Override
  public Object prepare(Routee[] routees, Object previous) {
    Mailbox[] boxes = new Mailbox[routees.length];
    for (int i = 0; i < routees.length; i++) {
      if (routees[i] instanceof ActorRefRoutee r) {
        boxes[i] = mailboxes.mailboxOf(r.ref());
      }
    }
    return boxes;
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    Mailbox[] mailboxes = (Mailbox[]) prepared;
    int n = routees.length;
    int start = n == 1 ? 0 : ThreadLocalRandom.current().nextInt(n);
    int best = start;
    long bestScore = Long.MAX_VALUE;
    for (int k = 0; k < n; k++) {
      int i = start + k < n ? start + k : start + k - n;
      long score = score(mailboxes[i]);
      if (score == 0) {
        best = i;
        break; // idle and empty: nothing beats it
      }
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    routees[best].send(message, sender);
  }

  /** 0 idle and empty, 1 busy and empty, 2 + size hint with messages; unknown or closed last. */
  private static long score(Mailbox m) {
    if (m == null || m.isClosed()) {
      return Long.MAX_VALUE - 1;
    }
    if (!m.hasMessages()) {
      return m.isScheduled() ? 1 : 0;
    }
    return 2L + Math.max(0, m.sizeHint());
  }
}
