/**
 * Mailboxes, message queues and dispatchers: the hot path of the runtime.
 *
 * <h2>Memory-ordering vocabulary</h2>
 *
 * Shared fields are accessed only through named accessors whose prefix says the ordering (as in
 * JCTools):
 *
 * <ul>
 *   <li>{@code lp}/{@code sp} — plain load/store: single-thread or already ordered by another
 *       access;
 *   <li>{@code lv}/{@code sv} — volatile load/store;
 *   <li>{@code la}/{@code so} — acquire load / release ("ordered", lazy-set) store;
 *   <li>{@code cas}/{@code xchg} — compare-and-set / get-and-set, full fences.
 * </ul>
 *
 * Every accessor says in one line why its ordering is enough. VarHandles are never touched outside
 * these accessors.
 */
package dev.troupe.actor.internal.dispatch;
