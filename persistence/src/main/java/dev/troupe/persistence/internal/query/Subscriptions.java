package dev.troupe.persistence.internal.query;

import dev.troupe.actor.ActorSystem;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running subscriptions of one query object (a read journal, a durable state query): each is
 * known from its start to its end, and when the system terminates every one still running ends with
 * an {@code IllegalStateException}, also one that starts as it terminates.
 */
public final class Subscriptions {
  private final ActorSystem system;
  private final Set<PollingSubscription<?>> running = ConcurrentHashMap.newKeySet();
  private volatile boolean terminated;

  /** @param system the system whose end ends the subscriptions */
  public Subscriptions(ActorSystem system) {
    this.system = system;
    system.getWhenTerminated().whenComplete((t, e) -> {
      terminated = true;
      IllegalStateException end = ended();
      running.forEach(s -> s.fail(end));
    });
  }

  /** @return the system, whose dispatcher and scheduler the subscriptions use */
  public ActorSystem system() {
    return system;
  }

  /**
   * Starts a new subscription: known until it ends, then its first signal.
   *
   * @param s the subscription, made with {@link #ended(PollingSubscription)} as its end
   */
  public void start(PollingSubscription<?> s) {
    running.add(s);
    s.start();
    if (terminated) { // it ended before this one was known
      s.fail(ended());
    }
  }

  /**
   * What a subscription is told when it has ended, however it ended.
   *
   * @param s the subscription
   */
  public void ended(PollingSubscription<?> s) {
    running.remove(s);
  }

  private IllegalStateException ended() {
    return new IllegalStateException("system [" + system.name() + "] has terminated");
  }
}
