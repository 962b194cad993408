package dev.troupe.remote.internal;

/** What waits in an outbound lane's queue: a user or system message, or a control frame. */
sealed interface Outbound permits OutboundEnvelope, ControlFrame, SystemMessageOutbox.Sequenced {}
