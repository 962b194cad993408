package dev.troupe.persistence;

import java.util.Objects;

/**
 * How a persistent actor recovers its state when it starts: from the newest snapshot the criteria
 * select, then the events after it up to {@code toSequenceNr}, at most {@code replayMax} of them.
 *
 * @param fromSnapshot which snapshot to start from ({@link SnapshotSelectionCriteria#none()}: none)
 * @param toSequenceNr the last event to replay
 * @param replayMax the most events to replay
 */
public record Recovery(SnapshotSelectionCriteria fromSnapshot, long toSequenceNr, long replayMax) {
  private static final Recovery DEFAULT = new Recovery(SnapshotSelectionCriteria.latest(), Long.MAX_VALUE, Long.MAX_VALUE);
  private static final Recovery NONE = new Recovery(SnapshotSelectionCriteria.none(), 0, Long.MAX_VALUE);

  /** Checks the fields. */
  public Recovery {
    Objects.requireNonNull(fromSnapshot, "fromSnapshot");
    if (toSequenceNr < 0 || replayMax < 0) {
      throw new IllegalArgumentException("toSequenceNr and replayMax must not be negative: " + toSequenceNr + ", " + replayMax);
    }
  }

  /** @return from the newest snapshot, every event after it (the default) */
  public static Recovery create() {
    return DEFAULT;
  }

  /**
   * @param toSequenceNr the last event to replay
   * @return from the newest snapshot at or before it, the events up to it
   */
  public static Recovery create(long toSequenceNr) {
    return new Recovery(SnapshotSelectionCriteria.latest(), toSequenceNr, Long.MAX_VALUE);
  }

  /**
   * @param fromSnapshot which snapshot to start from
   * @return from that snapshot, every event after it
   */
  public static Recovery create(SnapshotSelectionCriteria fromSnapshot) {
    return new Recovery(fromSnapshot, Long.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * @param fromSnapshot which snapshot to start from
   * @param toSequenceNr the last event to replay
   * @return from that snapshot, the events after it up to {@code toSequenceNr}
   */
  public static Recovery create(SnapshotSelectionCriteria fromSnapshot, long toSequenceNr) {
    return new Recovery(fromSnapshot, toSequenceNr, Long.MAX_VALUE);
  }

  /**
   * No recovery: the actor starts empty, its sequence numbers continuing after the stored ones.
   *
   * @return no snapshot, no event
   */
  public static Recovery none() {
    return NONE;
  }
}
