package dev.troupe.actor;

/**
 * An actor in the classic style: every message goes to {@link #onReceive(Object)}, which calls
 * {@link #unhandled(Object)} for what it does not understand.
 *
 * <pre>{@code
 * public final class Worker extends UntypedActor {
 *   @Override public void onReceive(Object message) {
 *     if (message instanceof String s) getSender().tell(s.length(), getSelf());
 *     else unhandled(message);
 *   }
 * }
 * }</pre>
 */
public abstract class UntypedActor extends Actor {

  /** Binds the instance to its cell; see {@link Actor#Actor()}. */
  protected UntypedActor() {}

  /**
   * Handles one message.
   *
   * @param message the message
   * @throws Exception any failure, handled by the supervisor
   */
  public abstract void onReceive(Object message) throws Exception;

  /** @return a behaviour that calls {@link #onReceive(Object)} for every message */
  @Override
  public final AbstractActor.Receive createReceive() {
    return AbstractActor.Receive.of(this::onReceive);
  }
}
