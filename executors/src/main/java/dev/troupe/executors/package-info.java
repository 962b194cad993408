/**
 * Standalone {@link java.util.concurrent.ExecutorService}s for Troupe's dispatchers: the
 * {@link dev.troupe.executors.AffinityPool} (striped per-thread queues with affinity, work
 * stealing and idle strategies), the {@link dev.troupe.executors.IdleStrategy} family with
 * {@link dev.troupe.executors.IdleStrategies#forCpuLevel(int)}, and factories for the JDK's
 * fork-join and thread-pool executors.
 *
 * <p>Only JDK and Troupe types appear in the public signatures; the engine (worker loop, queues,
 * padding) is package-private.
 *
 * <h2>Implementation notes: memory-ordering vocabulary</h2>
 * Fields shared between threads are accessed only through named accessors around a
 * {@link java.lang.invoke.VarHandle}, whose prefix says the access mode, each with a one-line
 * reason at its declaration:
 * <ul>
 *   <li>{@code lp}/{@code sp}: plain load/store, owner thread only;
 *   <li>{@code lo}/{@code so}: opaque load/store: atomic and eventually visible, no ordering
 *       (statistics); note: {@code so} here is <em>opaque</em>, not JCTools' store-ordered;
 *   <li>{@code lv}/{@code sv}: volatile load/store: sequentially consistent (handshakes);
 *   <li>{@code cas}, {@code xchg}: compare-and-set and get-and-set, volatile semantics.
 * </ul>
 * Padding is done with class layers (a superclass of 16 {@code long}s before and after a hot
 * field), as in JCTools.
 */
package dev.troupe.executors;
