package dev.troupe.remote.internal.transport;

/**
 * A system message on its way out on the control lane, behind its sequence number: the encoder
 * writes it as a {@link Wire#SYSTEM} frame. The numbering itself is the association's (its
 * system-message outbox), which keeps these until the peer acknowledges them.
 *
 * @param seq the message's number in the sequence towards the peer's current incarnation
 * @param envelope the message
 */
public record SequencedEnvelope(long seq, OutboundEnvelope envelope) implements Outbound {}
