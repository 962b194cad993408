package dev.troupe.persistence;

/**
 * Which snapshots recovery may start from, or a deletion removes: those whose sequence number and
 * timestamp lie within the bounds (all inclusive).
 *
 * @param maxSequenceNr the highest sequence number
 * @param maxTimestamp the latest timestamp
 * @param minSequenceNr the lowest sequence number
 * @param minTimestamp the earliest timestamp
 */
public record SnapshotSelectionCriteria(long maxSequenceNr, long maxTimestamp, long minSequenceNr, long minTimestamp) {
  private static final SnapshotSelectionCriteria LATEST = new SnapshotSelectionCriteria(Long.MAX_VALUE, Long.MAX_VALUE, 0, 0);
  private static final SnapshotSelectionCriteria NONE = new SnapshotSelectionCriteria(0, 0, 0, 0);

  /** Checks the bounds. */
  public SnapshotSelectionCriteria {
    if (minSequenceNr < 0 || minTimestamp < 0 || maxSequenceNr < 0 || maxTimestamp < 0) {
      throw new IllegalArgumentException("bounds must not be negative: " + maxSequenceNr + ", " + maxTimestamp
          + ", " + minSequenceNr + ", " + minTimestamp);
    }
  }

  /** @return every snapshot: recovery starts from the newest */
  public static SnapshotSelectionCriteria latest() {
    return LATEST;
  }

  /** @return no snapshot: recovery replays every event */
  public static SnapshotSelectionCriteria none() {
    return NONE;
  }

  /**
   * @param maxSequenceNr the highest sequence number
   * @param maxTimestamp the latest timestamp
   * @return the snapshots at or below both
   */
  public static SnapshotSelectionCriteria create(long maxSequenceNr, long maxTimestamp) {
    return new SnapshotSelectionCriteria(maxSequenceNr, maxTimestamp, 0, 0);
  }

  /**
   * @param maxSequenceNr the highest sequence number
   * @param maxTimestamp the latest timestamp
   * @param minSequenceNr the lowest sequence number
   * @param minTimestamp the earliest timestamp
   * @return the snapshots within all four bounds
   */
  public static SnapshotSelectionCriteria create(long maxSequenceNr, long maxTimestamp, long minSequenceNr, long minTimestamp) {
    return new SnapshotSelectionCriteria(maxSequenceNr, maxTimestamp, minSequenceNr, minTimestamp);
  }

  /**
   * @param m a snapshot's metadata
   * @return whether these criteria select it
   */
  public boolean matches(SnapshotMetadata m) {
    return m.sequenceNr() <= maxSequenceNr && m.timestamp() <= maxTimestamp
        && m.sequenceNr() >= minSequenceNr && m.timestamp() >= minTimestamp;
  }

  /**
   * These criteria capped by a sequence number (recovery up to an event never starts from a later
   * snapshot).
   *
   * @param toSequenceNr the cap
   * @return the capped criteria
   */
  public SnapshotSelectionCriteria limit(long toSequenceNr) {
    return toSequenceNr < maxSequenceNr ? new SnapshotSelectionCriteria(toSequenceNr, maxTimestamp, minSequenceNr, minTimestamp) : this;
  }
}
