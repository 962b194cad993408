package dev.troupe.bench.common;

/**
 * The configuration every cluster benchmark's nodes share, per framework: a cluster member on
 * 127.0.0.1 with an ephemeral port, its defaults otherwise, and {@link RemoteMessages.Wire} bound to
 * the framework's Jackson CBOR serializer.
 */
public final class ClusterNodes {
  /** Troupe: {@code troupe.actor.provider = cluster} on its default JGroups engine. */
  public static final String TROUPE =
      "troupe.actor.provider = cluster\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.cluster.seed-node-timeout = 500ms\n"
          + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
          + "troupe.serialization.bindings { " + RemoteMessages.WIRE_BINDING + " }\n";

  /** Pekko: classic Pekko Cluster over Artery TCP. */
  public static final String PEKKO =
      "pekko.actor.provider = cluster\n"
          + "pekko.remote.artery.transport = tcp\n"
          + "pekko.remote.artery.canonical.hostname = \"127.0.0.1\"\n"
          + "pekko.remote.artery.canonical.port = 0\n"
          + "pekko.cluster.jmx.enabled = off\n"
          // pekko-actor-typed is on the bench's class path (other benchmarks); its receptionist would
          // want pekko-cluster-typed on a cluster provider. A classic benchmark needs no typed extension.
          + "pekko.actor.typed.library-extensions = []\n"
          + "pekko.actor.serialization-bindings { " + RemoteMessages.WIRE_BINDING + " }\n";

  private ClusterNodes() {}
}
