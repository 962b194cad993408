/** The typed cluster's own internals: the bounded frame its serializers share. */
package dev.troupe.cluster.typed.internal;
