package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.spi.AskService;

/**
 * What a ref provider sees of the system it serves: the public system, its provider, the local half
 * a provider wraps, and the death-watch news of whole nodes. The engine's system implements it; a
 * provider gets it from {@link ActorRefProviderFactory#create} and every ref from {@link
 * InternalActorRef#system()}.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface RuntimeSystem {

  /** @return the system as users see it: settings, name, event stream, dispatchers, dead letters */
  ActorSystem actorSystem();

  /**
   * @return the system's provider; during {@link ActorRefProviderFactory#create} it is not set yet
   *     (null)
   */
  ActorRefProvider provider();

  /**
   * Builds the local half of a provider: guardians, dead letters, the temporary refs of asks and
   * the live actor tree, all under {@code address}. A networked provider calls it once, from
   * {@link ActorRefProviderFactory#create}, after it knows its bound address; it returns the result
   * from {@link ActorRefProvider#local()} and calls its {@link ActorRefProvider#init()} from its own.
   *
   * @param address the system's address, e.g. {@code troupe://name@host:port}
   * @return the local half, not yet initialised
   * @throws dev.troupe.actor.ConfigurationException if a {@code remote} value in {@code
   *     troupe.actor.deployment} is not an address, or a {@code troupe.actor.selection} bound is not
   *     a positive count
   */
  LocalActorRefProvider newLocalProvider(Address address);

  /**
   * A node is gone: every local actor that watches an actor at {@code address} receives {@code
   * Terminated(ref, false, true)} for it, and every local actor watched from there forgets its
   * watchers there.
   *
   * @param address the node's address (not this system's)
   * @throws IllegalArgumentException if it is this system's address
   */
  void addressTerminated(Address address);

  /**
   * Subscribes {@code actor} to "address terminated" news: it receives a {@link
   * SystemMessages.AddressTerminated} system message for every node declared gone.
   *
   * @param actor the subscriber
   */
  void subscribeAddressTerminated(InternalActorRef actor);

  /**
   * Ends a subscription made with {@link #subscribeAddressTerminated}.
   *
   * @param actor the subscriber
   */
  void unsubscribeAddressTerminated(InternalActorRef actor);

  /** @return what serves asks and graceful stops on this system (refs answer it for {@code Patterns}) */
  AskService askService();

  /**
   * What carries a message's trace context to and from other nodes: the installed tracing module's,
   * read anew on each call (tracing may be installed or removed at any time).
   *
   * @return the carrier, or null while no tracing module is installed (the usual case: one load
   *     and a check)
   */
  TraceCarrier traceCarrier();
}
