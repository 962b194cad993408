/**
 * Typed actors: {@link dev.troupe.actor.typed.Behavior}, {@link dev.troupe.actor.typed.ActorRef},
 * {@link dev.troupe.actor.typed.ActorSystem}, the signals, {@link
 * dev.troupe.actor.typed.SupervisorStrategy} and {@link dev.troupe.actor.typed.StatusReply}. The
 * Java DSL that builds behaviours is {@link dev.troupe.actor.typed.javadsl}.
 */
package dev.troupe.actor.typed;
