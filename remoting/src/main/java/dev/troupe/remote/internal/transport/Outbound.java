package dev.troupe.remote.internal.transport;

/** What waits in an outbound lane's queue: a user or system message, or a control frame. */
public sealed interface Outbound permits OutboundEnvelope, ControlFrame, SequencedEnvelope {}
