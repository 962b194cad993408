/**
 * Serialization of messages for other nodes: {@link dev.troupe.serialization.Serialization}, the
 * registry of one system, picks a {@link dev.troupe.serialization.Serializer} per class from {@code
 * troupe.serialization.bindings}. Troupe's messages, strings, byte arrays, boxed primitives and
 * refs are bound by default; users bind their own classes, typically to {@link
 * dev.troupe.serialization.JacksonCborSerializer jackson-cbor} (see {@link
 * dev.troupe.serialization.JacksonSerializer}). There is no Java serialization.
 */
package dev.troupe.serialization;
