/**
 * The cluster for typed actors: membership ({@code dev.troupe.cluster.typed}: this member, its
 * manager and its subscriptions as typed refs), sharding ({@code dev.troupe.cluster.sharding.typed}: entities of a
 * typed protocol, found by type key and id) and singletons ({@code
 * dev.troupe.cluster.singleton.typed}), run by the cluster's sharding and singleton managers; and the
 * serializers of the typed messages that cross nodes (sharding envelopes, reliable delivery's).
 */
module dev.troupe.cluster.typed {
  requires transitive dev.troupe.cluster;
  requires transitive dev.troupe.actor.typed;
  requires dev.troupe.remoting;

  exports dev.troupe.cluster.typed;
  exports dev.troupe.cluster.sharding.typed;
  exports dev.troupe.cluster.singleton.typed;
  // the envelope's and reliable delivery's serializers, which remoting's serialization registry
  // instantiates by name
  exports dev.troupe.cluster.sharding.typed.internal to dev.troupe.remoting;
  exports dev.troupe.cluster.typed.internal to dev.troupe.remoting;
}
