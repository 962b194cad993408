/**
 * How a system ends: the phases of its coordinated shutdown and their tasks ({@link
 * dev.troupe.actor.internal.shutdown.CoordinatedShutdownImpl}), their settings ({@code
 * troupe.coordinated-shutdown}) and the one JVM shutdown hook that runs every live system's
 * shutdown. Knows the system only by its name and two callbacks (terminate now, is terminating).
 */
package dev.troupe.actor.internal.shutdown;
