package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.internal.RoutedActorRef;
import dev.troupe.actor.internal.dispatch.Mailbox;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.Routee;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The least loaded routee by O(1) mailbox hints, never walking a queue: an idle routee with an
 * empty mailbox (taken at once), else one with an empty mailbox, else the smallest size hint (0 or
 * 1 for unbounded mailboxes, which keep no count, so ties are likely and go to the first found).
 * Routees without a visible mailbox (not local) and closed mailboxes come last. The scan starts at a
 * random routee so that ties spread. The mailboxes are looked up once per routee set.
 */
final class SmallestMailboxLogic implements RoutingLogic {
  @Override
  public Object prepare(Routee[] routees, Object previous) {
    Mailbox[] mailboxes = new Mailbox[routees.length];
    for (int i = 0; i < routees.length; i++) {
      if (routees[i] instanceof ActorRefRoutee r) {
        mailboxes[i] = RoutedActorRef.mailboxOf(r.ref());
      }
    }
    return mailboxes;
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
