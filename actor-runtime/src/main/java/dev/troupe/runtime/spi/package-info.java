/**
 * The runtime's service-provider interface: where a transport (remoting) or a cluster plugs into
 * the engine. A {@link dev.troupe.runtime.spi.ActorRefProviderFactory} named by {@code
 * troupe.actor.provider} builds the system's {@link dev.troupe.runtime.spi.ActorRefProvider} from a
 * {@link dev.troupe.runtime.spi.RuntimeSystem}; the provider wraps the system's {@link
 * dev.troupe.runtime.spi.LocalActorRefProvider}, makes {@link
 * dev.troupe.runtime.spi.InternalActorRef}s for actors elsewhere, and carries the runtime's {@link
 * dev.troupe.runtime.spi.SystemMessages} and {@link dev.troupe.runtime.spi.ActorSelectionMessage}s
 * between nodes. {@link dev.troupe.runtime.spi.ConfigReader} reads a plug-in's settings the way
 * the runtime reads its own, and {@link dev.troupe.runtime.spi.PathGlob} matches a path element
 * against a pattern the way selections and deployment sections do. A {@link
 * dev.troupe.runtime.spi.TraceCarrier} (the tracing module's) carries a message's trace context
 * across the network.
 *
 * <p>Exported only to Troupe's own remoting and cluster modules, and to the tracing module for its
 * trace carrier; it holds interfaces, messages and small stateless helpers, never the engine's
 * classes, and imports nothing of the runtime's internal packages.
 */
package dev.troupe.runtime.spi;
