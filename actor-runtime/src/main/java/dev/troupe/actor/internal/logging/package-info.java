/**
 * The runtime's own logging: the system's {@link dev.troupe.actor.LoggingAdapter} over SLF4J, and
 * the one-line notice a system prints when SLF4J has no provider (every failure and dead letter
 * would otherwise vanish). An actor's logger, which adds the actor's path to each line, is the
 * cell's ({@code ActorLoggingAdapter}).
 */
package dev.troupe.actor.internal.logging;
