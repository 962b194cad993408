/**
 * Cluster management over HTTP: a member's view of the cluster as JSON, readiness and liveness
 * checks, and (when allowed) leave and down by address, served by Netty's HTTP codec.
 */
@SuppressWarnings("module")
module dev.troupe.cluster.management {
  requires transitive dev.troupe.cluster;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires io.netty.buffer;
  requires io.netty.common;
  requires io.netty.transport;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.handler;

  exports dev.troupe.cluster.management;
}
