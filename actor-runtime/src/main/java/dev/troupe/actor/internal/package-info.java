/**
 * The engine's core: the actor system ({@link dev.troupe.actor.internal.ActorSystemImpl}), the
 * actor cell and its parts (fault handling, children, death watch, lazily allocated state, timers),
 * the engine's refs (local, routed, dead letters, asks, absent actors), the local ref provider and
 * its guardians, selections, and the bridge to telemetry. These share the system's fields on the
 * hot path and stay one package so that they do so without an interface in between.
 *
 * <p>Where a transport or a cluster plugs in is {@code dev.troupe.runtime.spi}; the concerns with
 * no way back into this package live beside it: {@code dispatch} (mailboxes and dispatchers),
 * {@code routing}, {@code scheduler}, {@code telemetry} and {@code shutdown}.
 */
package dev.troupe.actor.internal;
