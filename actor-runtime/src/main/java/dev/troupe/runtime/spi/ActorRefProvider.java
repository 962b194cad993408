package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;

/**
 * Everything that differs between a local-only and a networked system; one per system, chosen by
 * {@code troupe.actor.provider} (see {@link ActorRefProviderFactory}).
 *
 * <p>The seam, in one picture: the engine (cells, mailboxes, dispatchers) only ever talks to
 * {@link InternalActorRef}s. A provider decides what ref a path of <em>any</em> address becomes,
 * where a selection of another address starts, and where an actor deployed elsewhere is created.
 * A transport plugs in by implementing this interface around the system's {@link
 * LocalActorRefProvider} (built with {@link RuntimeSystem#newLocalProvider}; it owns the guardians,
 * dead letters and the temporary refs of asks) and by calling back into the engine for what arrives
 * from the wire:
 *
 * <ul>
 *   <li>a user message for a path: {@code resolveActorRef(recipient).tell(message, resolveActorRef(sender))};
 *   <li>a system message (watch, unwatch, death notification, termination): {@link
 *       InternalActorRef#sendSystemMessage} on the resolved local ref, with the remote party as a
 *       ref of the provider's own;
 *   <li>a selection sent to this node's root: {@link LocalActorRefProvider#deliverSelection};
 *   <li>a node that is gone: {@link RuntimeSystem#addressTerminated(Address)}, which gives every
 *       local watcher of an actor there {@code Terminated(ref, false, true)};
 *   <li>an actor that another node deploys here: {@link
 *       LocalActorRefProvider#actorOfSupervisedBy}, with the provider's stand-in for its parent
 *       there as its supervisor.
 * </ul>
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface ActorRefProvider {

  /** @return the system's address, with the bound port when the transport was asked for port 0 */
  Address address();

  /** @return the local half: guardians, dead letters, the local actor tree */
  LocalActorRefProvider local();

  /**
   * Called once while the system starts, after the fields of the system are set and before any
   * user actor exists: the local provider creates and starts the guardians here.
   */
  void init();

  /**
   * The ref for a path of any address. A path of this system resolves to the live actor with that
   * uid (or any uid when the path has none), to a temporary ask ref, or to a ref that sends to dead
   * letters and answers a watch with {@code Terminated}; a path of another address resolves to a
   * remote ref when this provider can reach it, or to such a nobody ref when it cannot.
   *
   * @param path a full path, with its uid where known
   * @return the ref; never null
   */
  InternalActorRef resolveActorRef(ActorPath path);

  /**
   * Where a selection of {@code address} starts: the local root guardian, or a ref on the node of
   * {@code address} to which the selection is sent whole (as an {@link ActorSelectionMessage}) and
   * resolved there.
   *
   * @param address any address
   * @return the anchor
   */
  InternalActorRef rootGuardianAt(Address address);

  /**
   * Creates an actor that its {@code Deploy} puts on another node: the actor is created there and
   * the returned ref, on the target's address, is registered as a child of {@code parent}.
   *
   * @param parent the local parent (the supervisor across the wire)
   * @param props the props; {@code props.deploy()} may be local when the deployment came from
   *     configuration
   * @param path the child's path on this system (its name and uid)
   * @param target the node to create it on
   * @return the child's ref
   * @throws dev.troupe.actor.ConfigurationException if this provider cannot deploy remotely, or
   *     the props cannot be sent
   */
  InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target);

  /**
   * Called once after the root guardian terminated and before the dispatchers shut down: a
   * transport tells its peers and closes here. Must not block for long.
   */
  void shutdown();

  /**
   * What cluster-aware routers ask for the nodes their routees may live on: a cluster's provider
   * answers it, every other one has none.
   *
   * @return the source, or null when this provider has no cluster
   */
  default RouteeNodes routeeNodes() {
    return null;
  }
}
