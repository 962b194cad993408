package dev.troupe.persistence.state;

import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link DurableStateStore} holds for a persistence id: its value, if one is stored, and
 * its revision. Revision 0 with no value: nothing was ever stored; a revision above 0 with no
 * value: the value was deleted at that revision, and the next write is the one after it.
 *
 * @param value the stored value, or empty
 * @param revision the revision of the last write or delete; 0 if none
 */
public record GetObjectResult(Optional<Object> value, long revision) {
  /**
   * @param value the stored value, or empty
   * @param revision the revision of the last write or delete; 0 if none
   * @throws IllegalArgumentException if the revision is negative, or 0 with a value
   */
  public GetObjectResult {
    Objects.requireNonNull(value, "value");
    if (revision < 0 || (revision == 0 && value.isPresent())) {
      throw new IllegalArgumentException("a stored value has a revision of at least 1, and no revision is negative: "
          + revision + (value.isPresent() ? " with a value" : ""));
    }
  }

  /** @return the result for an id that has nothing stored */
  public static GetObjectResult empty() {
    return new GetObjectResult(Optional.empty(), 0);
  }
}
