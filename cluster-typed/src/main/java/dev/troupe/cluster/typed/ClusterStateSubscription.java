package dev.troupe.cluster.typed;

/** What {@link Cluster#subscriptions()} takes. */
public sealed interface ClusterStateSubscription permits Subscribe, Unsubscribe, GetCurrentState {}
