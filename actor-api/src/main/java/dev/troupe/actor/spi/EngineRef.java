package dev.troupe.actor.spi;

/** Implemented by every runtime {@link dev.troupe.actor.ActorRef}: the way back to its engine. */
public interface EngineRef {
  /** @return the engine of the system this ref belongs to */
  Engine engine();
}
