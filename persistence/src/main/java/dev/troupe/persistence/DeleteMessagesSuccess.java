package dev.troupe.persistence;

/**
 * Sent to a persistent actor when the events up to a sequence number were deleted.
 *
 * @param toSequenceNr the highest deleted
 */
public record DeleteMessagesSuccess(long toSequenceNr) {}
