/**
 * Troupe's cluster: who is in, heard in the same order on every node. Membership comes from an
 * engine behind the SPI in {@code dev.troupe.cluster.spi} (JGroups embedded by default); the policy
 * (member statuses, events, downing) and sharding ({@code dev.troupe.cluster.sharding}) are this
 * module's own; actor traffic stays on remoting.
 */
// JGroups ships no module descriptor; its manifest names it org.jgroups (an automatic module), and
// javac's warning about requiring an automatic module is expected for that one directive. The
// micrometer module depends on this one and so is never on its compile path: the "module not
// found" warning for the qualified export to it is expected too.
@SuppressWarnings({"requires-automatic", "module"})
module dev.troupe.cluster {
  requires transitive dev.troupe.actor;
  requires dev.troupe.runtime;
  requires dev.troupe.remoting;
  requires org.slf4j;
  requires org.jgroups; // the embedded membership engine; internal, never in a public signature

  exports dev.troupe.cluster;
  exports dev.troupe.cluster.sharding;
  exports dev.troupe.cluster.singleton;
  exports dev.troupe.cluster.pubsub;
  exports dev.troupe.cluster.routing;
  exports dev.troupe.cluster.spi;

  // the cluster's serializer, which remoting's serialization registry instantiates by name
  exports dev.troupe.cluster.internal.core to dev.troupe.remoting;
  // the count of shard hand-overs (ShardingHooks), which the Micrometer binder publishes
  exports dev.troupe.cluster.internal.sharding to dev.troupe.micrometer;

  uses dev.troupe.cluster.spi.MembershipProviderFactory;

  // troupe.actor.provider = cluster
  provides dev.troupe.runtime.spi.ActorRefProviderFactory with
      dev.troupe.cluster.internal.core.ClusterProviderFactory;

  // the typed receptionist lists the other members' service instances through this node's directory
  provides dev.troupe.actor.spi.ServiceDirectory with
      dev.troupe.cluster.internal.core.ClusterServiceDirectory;

  provides dev.troupe.cluster.spi.MembershipProviderFactory with
      dev.troupe.cluster.internal.jgroups.JGroupsProviderFactory,
      dev.troupe.cluster.internal.inmemory.InMemoryProviderFactory;
}
