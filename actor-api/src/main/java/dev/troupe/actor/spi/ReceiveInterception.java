package dev.troupe.actor.spi;

import dev.troupe.actor.AbstractActor;

/**
 * Lets an actor base class stand between the cell and the behaviours its subclass installs, for
 * modules that give actors a protocol of their own around the user's cases (a persistent actor
 * stashes commands while it recovers or persists, and handles the journal's replies itself).
 *
 * <p>The runtime calls {@link #intercept} on the actor's thread: first once per incarnation, with
 * the behaviour {@code createReceive} returned, right after the instance is constructed and before
 * {@code preStart}; then with each behaviour {@code become} or {@code unbecome} installs. The cell
 * runs what it returns instead. Actors that do not implement this interface cost nothing: the cell
 * tests for it once per incarnation, never per message or per {@code become}.
 *
 * <p>Runtime SPI: implemented by base classes of other Troupe modules, not by application actors.
 */
public interface ReceiveInterception {
  /**
   * The behaviour the cell runs in place of {@code behavior}.
   *
   * @param behavior what the subclass installs
   * @return what the cell runs; never null
   */
  AbstractActor.Receive intercept(AbstractActor.Receive behavior);
}
