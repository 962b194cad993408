/**
 * Durable state: persistent actors that store their whole current state, not the events that led to
 * it. A {@link dev.troupe.persistence.state.DurableStateStore} keeps the latest value of each
 * persistence id with a revision number; {@link
 * dev.troupe.persistence.Persistence#durableStateStoreFor(String)} makes the configured ones (under
 * {@code troupe.persistence.state}). Typed actors use it through {@code DurableStateBehavior} in
 * module {@code persistence-typed}. {@link dev.troupe.persistence.state.DurableStateStoreRegistry}
 * hands out a store's queries: the changes of its objects by tag, as streams.
 */
package dev.troupe.persistence.state;
