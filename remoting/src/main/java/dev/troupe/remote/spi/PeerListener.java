package dev.troupe.remote.spi;

/**
 * Hears the {@link PeerEvent}s of a remote provider ({@link RemoteProvider#subscribe}). Called on
 * remoting's network threads, possibly under a peer's lock: it must return quickly and never
 * block (hand the event to an actor, or to a queue). An exception it throws is logged and
 * ignored.
 */
@FunctionalInterface
public interface PeerListener {
  void onPeerEvent(PeerEvent event);
}
