/**
 * Troupe's remoting: actors on other JVMs. This module holds the {@code remote} ref provider and
 * its TCP transport (internal, found by the runtime as a service when {@code troupe.actor.provider
 * = remote}), the serialization of messages ({@code dev.troupe.serialization}: the registry of one
 * system, the {@code Serializer} SPI, the built-in serializers and Jackson JSON/CBOR for users'
 * records), the remoting events ({@code dev.troupe.remote}) and the remoting SPI for a provider
 * built on the remote one ({@code dev.troupe.remote.spi}, for the cluster module only).
 *
 * <p>On the module path, the Jackson serializers read and write users' classes reflectively: a
 * modular application opens the packages of its message classes to {@code
 * com.fasterxml.jackson.databind}, and exports the package of its own serializers to {@code
 * dev.troupe.remoting}, which instantiates them by name.
 */
// The SPI is exported to the cluster and micrometer modules, which depend on this one and so are
// never on this module's compile path: javac's "module not found" warning for that export is expected,
// and suppressed here only.
@SuppressWarnings("module")
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
  requires io.netty.transport.unix.common; // the native transport's errors
  requires io.netty.transport.classes.epoll; // the epoll transport (troupe.remote.advanced.transport); its native library is optional

  exports dev.troupe.remote;
  exports dev.troupe.serialization;
  // the remote provider SPI for the cluster; RemoteMetricsView for the Micrometer binder
  exports dev.troupe.remote.spi to dev.troupe.cluster, dev.troupe.micrometer;

  // Kinds of reference that stand for classic refs (e.g. the typed ActorRef<T>), sent as their paths.
  uses dev.troupe.actor.spi.ClassicRefView;
  // RemoteProviders (the SPI's wrapping point) finds this module's own provider factory as the runtime does.
  uses dev.troupe.runtime.spi.ActorRefProviderFactory;

  provides dev.troupe.runtime.spi.ActorRefProviderFactory with
      dev.troupe.remote.internal.provider.RemoteProviderFactory;
}
