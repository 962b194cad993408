/**
 * The remoting SPI for a provider built on the remote one (the cluster's, {@code
 * troupe.actor.provider = cluster}): make the remote provider and wrap it ({@link
 * dev.troupe.remote.spi.RemoteProviders}), hear what happens to peers ({@link
 * dev.troupe.remote.spi.PeerEvent}: associated, disassociated, quarantined, each with the peer's
 * incarnation uid), quarantine an incarnation with a reason, and declare a whole address
 * terminated ({@link dev.troupe.remote.spi.RemoteProvider}); and a read-only view of remoting's
 * counts per peer for the meters ({@link dev.troupe.remote.spi.RemoteMetricsView}).
 *
 * <p>On the module path this package is exported only to {@code dev.troupe.cluster} (and {@code
 * dev.troupe.micrometer}, which reads the metrics view): it is an
 * SPI between Troupe's own modules (its types extend the runtime's provider SPI), not an API for
 * applications, which watch the public events of {@code dev.troupe.remote} instead.
 */
package dev.troupe.remote.spi;
