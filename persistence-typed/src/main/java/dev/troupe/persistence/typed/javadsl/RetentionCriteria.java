package dev.troupe.persistence.typed.javadsl;

/**
 * When an event-sourced behaviour saves snapshots by itself, and how many it keeps.
 *
 * @param snapshotEveryNEvents a snapshot after each event whose sequence number is a multiple of
 *     this (0: never)
 * @param keepNSnapshots after a snapshot is saved, older ones beyond this many are deleted
 * @param deleteEventsOnSnapshot whether, after a snapshot is saved, the events up to the oldest
 *     snapshot kept are deleted from the journal
 */
public record RetentionCriteria(int snapshotEveryNEvents, int keepNSnapshots, boolean deleteEventsOnSnapshot) {
  private static final RetentionCriteria DISABLED = new RetentionCriteria(0, 0, false);

  /** Checks the numbers. */
  public RetentionCriteria {
    if (snapshotEveryNEvents < 0 || keepNSnapshots < 0 || snapshotEveryNEvents > 0 && keepNSnapshots < 1) {
      throw new IllegalArgumentException("snapshotEveryNEvents must not be negative and keepNSnapshots at least 1: "
          + snapshotEveryNEvents + ", " + keepNSnapshots);
    }
  }

  /** @return no snapshots (the default) */
  public static RetentionCriteria disabled() {
    return DISABLED;
  }

  /**
   * @param numberOfEvents a snapshot every this many events
   * @param keepNSnapshots how many snapshots to keep
   * @return the criteria
   */
  public static RetentionCriteria snapshotEvery(int numberOfEvents, int keepNSnapshots) {
    if (numberOfEvents < 1) {
      throw new IllegalArgumentException("numberOfEvents must be at least 1, was " + numberOfEvents);
    }
    return new RetentionCriteria(numberOfEvents, keepNSnapshots, false);
  }

  /**
   * These criteria, and after each snapshot the events up to the oldest snapshot kept deleted:
   * recovery never needs them, and the journal stops growing.
   *
   * @return the criteria that delete events
   */
  public RetentionCriteria withDeleteEventsOnSnapshot() {
    if (snapshotEveryNEvents == 0) {
      throw new IllegalStateException("events are deleted on snapshots, and these criteria take none");
    }
    return new RetentionCriteria(snapshotEveryNEvents, keepNSnapshots, true);
  }
}
