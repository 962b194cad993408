/**
 * The Java DSL of typed actors: {@link dev.troupe.actor.typed.javadsl.Behaviors} (the functional
 * style), {@link dev.troupe.actor.typed.javadsl.AbstractBehavior} (the object-oriented style),
 * {@link dev.troupe.actor.typed.javadsl.ActorContext}, timers, stash, {@link
 * dev.troupe.actor.typed.javadsl.AskPattern} and the {@link dev.troupe.actor.typed.javadsl.Adapter}
 * to and from classic actors.
 */
package dev.troupe.actor.typed.javadsl;
