/** The typed sharding's internals: the shard's typed view and the envelope's serializer. */
package dev.troupe.cluster.sharding.typed.internal;
