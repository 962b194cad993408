/**
 * The cluster as a typed actor sees it: {@link dev.troupe.cluster.typed.Cluster#get} gives this
 * member ({@code selfMember()}, {@code state()}), a {@code manager()} to tell {@link
 * dev.troupe.cluster.typed.Join}, {@link dev.troupe.cluster.typed.JoinSeedNodes}, {@link
 * dev.troupe.cluster.typed.Leave} and {@link dev.troupe.cluster.typed.Down}, and {@code
 * subscriptions()} to tell {@link dev.troupe.cluster.typed.Subscribe} (cluster events, {@link
 * dev.troupe.cluster.typed.SelfUp}, {@link dev.troupe.cluster.typed.SelfRemoved}), {@link
 * dev.troupe.cluster.typed.Unsubscribe} and {@link dev.troupe.cluster.typed.GetCurrentState}.
 */
package dev.troupe.cluster.typed;
