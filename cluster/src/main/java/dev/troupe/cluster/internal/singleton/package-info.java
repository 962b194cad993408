/**
 * The engine behind {@code dev.troupe.cluster.singleton}: the managers' hand-over protocol ({@link
 * dev.troupe.cluster.internal.singleton.ManagerActor}, {@link
 * dev.troupe.cluster.internal.singleton.Protocol}), the proxy ({@link
 * dev.troupe.cluster.internal.singleton.ProxyActor}), and the membership they run over ({@link
 * dev.troupe.cluster.internal.singleton.SingletonMembership}, installed by the cluster wiring
 * through {@link dev.troupe.cluster.internal.singleton.SingletonHooks}; tests feed it by hand).
 */
package dev.troupe.cluster.internal.singleton;
