/**
 * The actor system's timer scheduler: a hashed timing wheel driven by one timer thread.
 *
 * <p>Internal: not exported, no compatibility promise. {@link
 * dev.troupe.actor.internal.scheduler.HashedWheelScheduler} is the only public type (the runtime's
 * other packages construct it); everything else here is package-private.
 *
 * <h2>Thread roles</h2>
 *
 * <ul>
 *   <li><b>any thread</b> schedules, cancels and reads statistics;
 *   <li><b>the timer thread</b> (in manual mode: the one thread that calls {@code runDueTimers})
 *       owns the wheel, its linked lists and the {@code retired} counter, and hands due tasks to
 *       their executors; it never runs a task itself unless the executor it was given does so;
 *   <li><b>executor threads</b> run tasks and re-arm periodic ones.
 * </ul>
 *
 * <p>A timer reaches the timer thread only through an MPSC queue (schedule and re-arm) or the
 * cancel queue; the queue's offer/poll is the happens-before edge that publishes the plain fields a
 * producer wrote before offering.
 *
 * <h2>Memory-ordering vocabulary</h2>
 *
 * The runtime's vocabulary (the same as in {@code dev.troupe.actor.internal.dispatch}, after
 * JCTools): shared fields are read and written only through named accessors whose prefix says the
 * access mode. This package uses:
 *
 * <table>
 *   <caption>Accessor prefixes</caption>
 *   <tr><th>prefix</th><th>mode</th><th>used where</th></tr>
 *   <tr><td>{@code lv}</td><td>volatile load</td><td>any-thread reads of a state that another
 *       thread may change</td></tr>
 *   <tr><td>{@code lp}</td><td>plain load</td><td>the owning (only writing) thread reading its
 *       own field</td></tr>
 *   <tr><td>{@code sv}</td><td>volatile store</td><td>a store that must not be reordered with a
 *       later load (Dekker-style park/unpark handshake)</td></tr>
 *   <tr><td>{@code so}</td><td>ordered (release) store</td><td>single-writer counters read by
 *       other threads; no StoreLoad fence needed</td></tr>
 *   <tr><td>{@code cas}</td><td>volatile compare-and-set</td><td>state transitions raced by
 *       several threads</td></tr>
 * </table>
 *
 * <p>VarHandles are touched only inside these accessors; each field's declaration says in one line
 * which mode it needs and why.
 */
package dev.troupe.actor.internal.scheduler;
