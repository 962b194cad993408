package dev.troupe.remote.internal.association;

import dev.troupe.actor.Address;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What retired associations left for the next association with the same node ({@link
 * Association.Remembered}), at most {@code maximum-retired-associations} records of each of two
 * kinds, the oldest forgotten first: nodes this node numbered system messages to (a watch, a stop,
 * a death notice: local actors' doing, or a trusted peer's) and all others (any peer that completed
 * a handshake). Kept apart so that a flood of handshakes from made-up nodes cannot push out the
 * numbering of a real peer's system messages, which a forgotten record would restart at 1 (the
 * peer would take the next ones for resends it already has).
 *
 * <p>Thread-safety: its own lock; {@link Associations} also holds it while it retires an association, so
 * that whoever sees an association retired finds its record here.
 */
public final class RetiredAssociations {
  private final Map<Address, Association.Remembered> sentTo;
  private final Map<Address, Association.Remembered> others;

  public RetiredAssociations(int maximum) {
    this.sentTo = bounded(maximum);
    this.others = bounded(maximum);
  }

  private static Map<Address, Association.Remembered> bounded(int maximum) {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Address, Association.Remembered> eldest) {
        return size() > maximum;
      }
    };
  }

  public synchronized void put(Address node, Association.Remembered r) {
    if (r.nextSeq() > 1) {
      others.remove(node);
      sentTo.put(node, r);
    } else {
      sentTo.remove(node);
      others.put(node, r);
    }
  }

  /** @return the record of {@code node}, removed, or null */
  public synchronized Association.Remembered take(Address node) {
    Association.Remembered r = sentTo.remove(node);
    return r != null ? r : others.remove(node);
  }

  /** @return records kept, for tests */
  public synchronized int size() {
    return sentTo.size() + others.size();
  }
}
