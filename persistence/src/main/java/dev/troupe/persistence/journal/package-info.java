/**
 * Event adapters: how stored events evolve without rewriting the journal. A journal plugin's
 * section binds event classes to adapters ({@code event-adapters}, {@code event-adapter-bindings});
 * the runtime hands each event a persistent actor stores to its adapter's {@link
 * dev.troupe.persistence.journal.EventAdapter#toJournal}, and each stored event it replays (to the
 * actor's recovery, or to a persistence query) to {@link
 * dev.troupe.persistence.journal.EventAdapter#fromJournal}, which may upcast it to a newer class,
 * split it into several events or drop it.
 */
package dev.troupe.persistence.journal;
