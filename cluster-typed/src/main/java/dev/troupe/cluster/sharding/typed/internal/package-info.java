/** The typed cluster's internals: the shard's typed view, the envelope's serializer, per-system instances. */
package dev.troupe.cluster.sharding.typed.internal;
