/**
 * Service-provider interfaces between Troupe's modules. {@link
 * dev.troupe.actor.spi.ClassicRefView} is implemented by a module whose references stand for classic
 * ones (the typed module) and used by remoting to send them; {@link
 * dev.troupe.actor.spi.ForwardingRef} by a ref that stands for a runtime's ref (the testkit's {@code
 * TestActorRef}) and read by the runtime; every other type here is implemented by the runtime and
 * called by the API. Application code does not use them.
 */
package dev.troupe.actor.spi;
