/**
 * Troupe's cluster: who is in, heard in the same order on every node. Membership comes from an
 * engine behind the SPI in {@code dev.troupe.cluster.spi} (JGroups embedded by default); the policy
 * (member statuses, events, downing) is this module's own; actor traffic stays on remoting.
 */
module dev.troupe.cluster {
  requires transitive dev.troupe.actor;
  requires dev.troupe.runtime;
  requires dev.troupe.remoting;
  requires org.slf4j;

  exports dev.troupe.cluster;
  exports dev.troupe.cluster.sharding;
  exports dev.troupe.cluster.spi;

  uses dev.troupe.cluster.spi.MembershipProviderFactory;
}
