/**
 * The engine's refs with no cell behind them: dead letters (which publish, count and log what
 * could not be delivered), the temporary reply ref of an ask, the ref of a path where no actor
 * lives, and the root guardian's parent. Each acts in the caller's thread and knows the system only
 * through the SPI's {@code RuntimeSystem} and what it is handed at construction. The refs with a
 * cell ({@code LocalActorRef}, {@code RoutedActorRef}) live with the cell in the core package.
 */
package dev.troupe.actor.internal.ref;
