/**
 * The transport: TCP connections on Netty, the wire format ({@link
 * dev.troupe.remote.internal.transport.Wire}, the one class that knows the frame layout), the
 * per-connection string tables, TLS and the limits on what a peer's bytes may cost. The bottom
 * layer: it imports no other remoting package but the settings, and knows the node above it only
 * through {@link dev.troupe.remote.internal.transport.InboundHost} and {@link
 * dev.troupe.remote.internal.transport.InboundPeer} (what accepted connections deliver) and {@link
 * dev.troupe.remote.internal.transport.OutboundListener} (what an outbound connection tells its
 * lane). A transport of another kind plugs in here.
 *
 * <p>The pipelines, one handler per job:
 *
 * <pre>
 *   accepted: [TLS | TlsOnPlainPort] HandshakeDeadline (then the idle timeout) | frame decoder | frame encoder
 *             | InboundHandshakeHandler (removes itself) | EnvelopeDecoder | InboundDispatcher
 *   outbound: [TLS] HandshakeDeadline | frame decoder | frame encoder | EnvelopeEncoder
 *             | OutboundHandshakeHandler (removes itself) | OutboundConnectionHandler
 * </pre>
 */
package dev.troupe.remote.internal.transport;
