/**
 * Durable state for typed actors: {@link dev.troupe.persistence.typed.state.javadsl.DurableStateBehavior},
 * a behaviour whose command handler answers with effects that store the actor's whole new state
 * (not events) in a {@code DurableStateStore} of {@code dev.troupe.persistence.state}, and that
 * gets its stored state back when it starts.
 */
package dev.troupe.persistence.typed.state.javadsl;
