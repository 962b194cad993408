package dev.troupe.persistence.internal.state;

/** The failure of a write or delete whose revision is not the stored one plus one. */
final class RevisionConflict {
  private RevisionConflict() {}

  /**
   * @param persistenceId the id
   * @param given the revision of the write
   * @param stored the revision stored
   * @return the failure, naming both and the likely cause
   */
  static IllegalStateException of(String persistenceId, long given, long stored) {
    return new IllegalStateException("persistence id [" + persistenceId + "]: revision " + given
        + " cannot be written, the stored revision is " + stored + " (the next is " + (stored + 1)
        + "): two writers of one id?");
  }
}
