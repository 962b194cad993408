/**
 * Troupe's remoting: actors on other JVMs. This module holds the serialization of messages
 * ({@code dev.troupe.serialization}: the registry of one system, the {@code Serializer} SPI, the
 * built-in serializers and Jackson JSON/CBOR for users' records) and the remoting events ({@code
 * dev.troupe.remote}).
 *
 * <p>On the module path, the Jackson serializers read and write users' classes reflectively: a
 * modular application opens the packages of its message classes to {@code
 * com.fasterxml.jackson.databind}, and exports the package of its own serializers to {@code
 * dev.troupe.remoting}, which instantiates them by name.
 */
module dev.troupe.remoting {
  requires transitive dev.troupe.actor;
  requires dev.troupe.runtime;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.cbor;
  requires org.slf4j;

  exports dev.troupe.remote;
  exports dev.troupe.serialization;
}
