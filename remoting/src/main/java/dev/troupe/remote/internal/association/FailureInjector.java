package dev.troupe.remote.internal.association;

import dev.troupe.actor.Address;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cuts this node off from chosen nodes, for tests of network partitions; it exists only when
 * {@code troupe.remote.advanced.failure-injector = on} (see {@link Associations#failureInjector()}; tests find it with {@code FailureInjectors.of}),
 * and with the key off nothing on the message path looks at it beyond one null check.
 *
 * <p>While a node is {@linkplain #blackhole blackholed}, this node sends it nothing, silently, as a
 * cut cable would: no message or system message ({@link Associations#send}), no heartbeat of remote
 * death watch, no leaving notice at shutdown. It cuts one direction; a partition between two sides
 * blackholes on both, so that neither hears the other. What it does not stop: connections already
 * open stay open, and what the transport sends by itself on them (its acknowledgements, and resends
 * of system messages sent before the cut) still crosses. {@link #restore} heals: what is sent from
 * then on goes out again.
 */
public final class FailureInjector {
  private final Set<Address> cut = ConcurrentHashMap.newKeySet();

  FailureInjector() {}

  /** From now on, nothing goes out to the node at {@code node}. */
  public void blackhole(Address node) {
    cut.add(Objects.requireNonNull(node, "node"));
  }

  /** From now on, messages to {@code node} go out again. */
  public void restore(Address node) {
    cut.remove(node);
  }

  /** Lifts every cut. */
  public void restoreAll() {
    cut.clear();
  }

  /** @return whether nothing goes out to {@code node} now */
  public boolean cuts(Address node) {
    return !cut.isEmpty() && cut.contains(node);
  }

  /** @return the nodes cut off now */
  public Set<Address> blackholed() {
    return Set.copyOf(cut);
  }
}
