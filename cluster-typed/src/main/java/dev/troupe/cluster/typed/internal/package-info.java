/**
 * The typed cluster's own internals: the frame its serializers share, and the serializer of typed
 * reliable delivery's messages between nodes.
 */
package dev.troupe.cluster.typed.internal;
