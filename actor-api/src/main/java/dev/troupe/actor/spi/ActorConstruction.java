package dev.troupe.actor.spi;

import dev.troupe.actor.ActorInitializationException;

/**
 * Hands the context of the actor being constructed to the actor base class's constructor, so that
 * {@code getContext()} and {@code getSelf()} work inside user constructors. The runtime brackets
 * every constructor call with {@link #begin(CellSpi)} and {@link #end()} on the constructing
 * thread.
 */
public final class ActorConstruction {
  private static final ThreadLocal<CellSpi> CURRENT = new ThreadLocal<>();

  private ActorConstruction() {}

  /**
   * Marks the start of an actor's construction on this thread.
   *
   * @param cell the cell the new instance belongs to
   */
  public static void begin(CellSpi cell) {
    CURRENT.set(cell);
  }

  /** Marks the end of the construction on this thread. */
  public static void end() {
    CURRENT.remove();
  }

  /**
   * The cell of the actor under construction; called by the actor base class constructor.
   *
   * @param actorClass the class being instantiated, for the error message
   * @return the cell
   * @throws ActorInitializationException if no actor is under construction on this thread, i.e.
   *     the actor was created with {@code new} rather than {@code actorOf}
   */
  public static CellSpi current(Class<?> actorClass) {
    CellSpi cell = CURRENT.get();
    if (cell == null) {
      throw new ActorInitializationException(
          null,
          "you cannot create an instance of "
              + actorClass.getName()
              + " explicitly using 'new'; create actors with actorOf(Props)",
          null);
    }
    CURRENT.remove(); // one cell, one instance: a nested 'new' inside the constructor must fail
    return cell;
  }
}
