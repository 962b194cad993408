/**
 * Troupe's remoting: actors on other JVMs. This module holds the {@code remote} ref provider and
 * its TCP transport (internal, found by the runtime as a service when {@code troupe.actor.provider
 * = remote}), the serialization of messages ({@code dev.troupe.serialization}: the registry of one
 * system, the {@code Serializer} SPI, the built-in serializers and Jackson JSON/CBOR for users'
 * records) and the remoting events ({@code dev.troupe.remote}).
 *
 * <p>On the module path, the Jackson serializers read and write users' classes reflectively: a
 * modular application opens the packages of its message classes to {@code
 * com.fasterxml.jackson.databind}, and exports the package of its own serializers to {@code
 * dev.troupe.remoting}, which instantiates them by name.
 */
module dev.troupe.remoting {
  requires transitive dev.troupe.actor;
  requires dev.troupe.runtime;
  requires transitive com.fasterxml.jackson.databind; // JacksonMapperCustomizer takes its MapperBuilder
  requires com.fasterxml.jackson.dataformat.cbor;
  requires com.fasterxml.jackson.datatype.jdk8;
  requires com.fasterxml.jackson.datatype.jsr310;
  requires com.fasterxml.jackson.module.paramnames;
  requires org.slf4j;
  requires org.jctools.core;
  requires io.netty.buffer;
  requires io.netty.common;
  requires io.netty.transport;
  requires io.netty.codec;
  requires io.netty.handler;

  exports dev.troupe.remote;
  exports dev.troupe.serialization;

  // Kinds of reference that stand for classic refs (e.g. the typed ActorRef<T>), sent as their paths.
  uses dev.troupe.actor.spi.ClassicRefView;

  provides dev.troupe.runtime.spi.ActorRefProviderFactory with
      dev.troupe.remote.internal.RemoteProviderFactory;
}
