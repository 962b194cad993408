/**
 * Typed cluster singletons: {@link dev.troupe.cluster.singleton.typed.ClusterSingleton} and {@link
 * dev.troupe.cluster.singleton.typed.SingletonActor}, over the cluster's singleton manager and proxy.
 */
package dev.troupe.cluster.singleton.typed;
