package dev.troupe.actor;

/**
 * A side-effecting function of one argument that may throw: the handler type of behaviours
 * ({@link ReceiveBuilder}, {@link ActorContext#become(Procedure)}).
 *
 * @param <T> the argument type
 */
@FunctionalInterface
public interface Procedure<T> {
  /**
   * Applies the procedure.
   *
   * @param value the argument
   * @throws Exception any failure; inside an actor it goes to the supervisor
   */
  void apply(T value) throws Exception;
}
