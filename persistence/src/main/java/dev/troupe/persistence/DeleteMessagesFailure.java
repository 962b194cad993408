package dev.troupe.persistence;

/**
 * Sent to a persistent actor when events could not be deleted.
 *
 * @param cause why
 * @param toSequenceNr the highest to delete
 */
public record DeleteMessagesFailure(Throwable cause, long toSequenceNr) {}
