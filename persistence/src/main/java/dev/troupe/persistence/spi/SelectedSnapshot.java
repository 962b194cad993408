package dev.troupe.persistence.spi;

import dev.troupe.persistence.SnapshotMetadata;
import java.util.Objects;

/**
 * A snapshot a store loaded.
 *
 * @param metadata whose snapshot, at which sequence number, from when
 * @param snapshot the state
 */
public record SelectedSnapshot(SnapshotMetadata metadata, Object snapshot) {
  /** Checks the fields. */
  public SelectedSnapshot {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(snapshot, "snapshot");
  }
}
