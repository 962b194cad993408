package dev.troupe.remote.spi;

import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.ActorRefProvider;
import java.util.OptionalLong;

/**
 * The remote provider as a provider built on it sees it: an {@link ActorRefProvider} (this
 * node's address, local and remote refs, remote deployment), and what a cluster needs of remoting
 * besides. A provider that wraps it delegates the provider's methods to it and keeps it for the
 * rest; get one from {@link RemoteProviders#create}. Every method may be called from any thread
 * and never blocks.
 */
public interface RemoteProvider extends ActorRefProvider {
  /** @return this node's incarnation: a random uid, new each time the system starts */
  long uid();

  /**
   * @return the incarnation of the node at {@code node} as the last handshake with it told, or
   *     empty when none is known
   */
  OptionalLong incarnation(Address node);

  /**
   * Starts telling {@code listener} of every {@link PeerEvent} from now on.
   *
   * @return ends the subscription; calling it again does nothing
   */
  Runnable subscribe(PeerListener listener);

  /**
   * Quarantines incarnation {@code uid} of the node at {@code node}: logged, {@link
   * PeerEvent.Quarantined} and the public {@code QuarantinedEvent} published, what waits for it
   * dropped, its connections closed, and no connection with that uid is accepted or kept again; if
   * it is the node's current incarnation, its actors count as terminated for their watchers
   * ({@code Terminated} with {@code addressTerminated}). An incarnation that is not the current one
   * (an older one, or one not seen yet) is only remembered as refused. A restarted node, with a new
   * uid, is reached again.
   *
   * @param reason why, for the log and the event
   */
  void quarantine(Address node, long uid, String reason);

  /**
   * Declares the node at {@code node} gone: every local watcher of an actor there gets {@code
   * Terminated} with {@code addressTerminated = true} (also those that watch it later), and
   * remoting quarantines the node's current incarnation (as {@link #quarantine}), so that nothing
   * more is delivered to or accepted from it. A restarted node is reached again.
   *
   * @param reason why, for the log and the event
   */
  void addressTerminated(Address node, String reason);
}
