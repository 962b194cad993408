package dev.troupe.persistence.internal.state;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Per tag, the offset of the latest change of each id stored with it: what a store's {@code
 * changesByTag} reads. Not thread-safe: its store guards it.
 */
final class TagIndex {
  private final Map<String, TreeMap<Long, String>> byTag = new HashMap<>();

  /**
   * Files an id's latest change in place of its last one.
   *
   * @param persistenceId the id
   * @param tag the tag of its latest change
   * @param offset the offset of its latest change
   * @param lastTag the tag of its last change, or null if it had none
   * @param lastOffset the offset of its last change (ignored without one)
   */
  void changed(String persistenceId, String tag, long offset, String lastTag, long lastOffset) {
    if (lastTag != null) {
      TreeMap<Long, String> old = byTag.get(lastTag);
      old.remove(lastOffset);
      if (old.isEmpty()) {
        byTag.remove(lastTag);
      }
    }
    byTag.computeIfAbsent(tag, k -> new TreeMap<>()).put(offset, persistenceId);
  }

  /**
   * @param tag a tag
   * @param afterOffset an offset
   * @return the offsets of the tag's latest changes above it, in order, to their ids (a view)
   */
  NavigableMap<Long, String> after(String tag, long afterOffset) {
    TreeMap<Long, String> ids = byTag.get(tag);
    return ids == null ? new TreeMap<>() : ids.tailMap(afterOffset, false);
  }

  /** Forgets every change. */
  void clear() {
    byTag.clear();
  }
}
