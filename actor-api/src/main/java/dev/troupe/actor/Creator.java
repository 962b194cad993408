package dev.troupe.actor;

/**
 * Creates a value, possibly throwing. Used by {@link Props#create(Class, Creator)} to build actor
 * instances: it is called once per incarnation, on the actor's own thread.
 *
 * @param <T> the type created
 */
@FunctionalInterface
public interface Creator<T> {
  /**
   * Creates the value.
   *
   * @return a new instance
   * @throws Exception if creation fails; the actor then fails with an {@link
   *     ActorInitializationException}
   */
  T create() throws Exception;
}
