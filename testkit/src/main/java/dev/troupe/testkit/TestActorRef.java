package dev.troupe.testkit;

import dev.troupe.actor.Actor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.testing.TestHooks;
import dev.troupe.actor.spi.ForwardingRef;
import java.util.Objects;

/**
 * A ref to an actor that runs on the test's own thread, for unit tests of one actor's logic
 * (Pekko's {@code TestActorRef}, by its names). The actor runs on the calling-thread dispatcher
 * ({@value #DISPATCHER}): a {@link #tell} has been handled when it returns, with no other thread
 * involved, and {@link #underlyingActor()} is the actor instance itself, whose state the test can
 * read (and call) directly.
 *
 * <pre>{@code
 * TestActorRef<Counter> ref = TestActorRef.create(system, Props.create(Counter.class));
 * ref.tell(new Add(3), ActorRef.noSender());
 * assertEquals(3, ref.underlyingActor().total);
 * assertThrows(IllegalArgumentException.class, () -> ref.receive(new Add(-1)));  // to the test, not the supervisor
 * }</pre>
 *
 * <p>{@link #receive} hands a message to the actor and throws what it throws (checked exceptions
 * too, undeclared), where {@code tell} would hand the failure to the supervisor. Messages the actor
 * sends to other actors on the same dispatcher run after the current one, on the same thread; to
 * actors on other dispatchers, as usual. An ask of, or a wait for, another actor inside a handler
 * deadlocks here: test such actors with a {@link TestKit} instead. Use it from one thread.
 *
 * @param <T> the actor's class
 */
public final class TestActorRef<T extends Actor> extends ActorRef implements ForwardingRef {
  /** The dispatcher a {@code TestActorRef}'s actor runs on: the testkit's calling-thread dispatcher. */
  public static final String DISPATCHER = "troupe.test.calling-thread-dispatcher";

  private final ActorRef ref;

  private TestActorRef(ActorRef ref) {
    this.ref = ref;
  }

  /**
   * Starts the actor under {@code /user} with a generated name, on the calling thread.
   *
   * @param system the system
   * @param props the actor's props; its dispatcher is replaced by {@value #DISPATCHER}
   * @param <T> the actor's class
   * @return the ref, once the actor has started
   */
  public static <T extends Actor> TestActorRef<T> create(ActorSystem system, Props props) {
    return new TestActorRef<>(system.actorOf(Objects.requireNonNull(props, "props").withDispatcher(DISPATCHER)));
  }

  /**
   * Starts the actor under {@code /user} with {@code name}, on the calling thread.
   *
   * @param system the system
   * @param props the actor's props; its dispatcher is replaced by {@value #DISPATCHER}
   * @param name its name
   * @param <T> the actor's class
   * @return the ref, once the actor has started
   */
  public static <T extends Actor> TestActorRef<T> create(ActorSystem system, Props props, String name) {
    return new TestActorRef<>(system.actorOf(Objects.requireNonNull(props, "props").withDispatcher(DISPATCHER), name));
  }

  /**
   * @return the actor instance now (a restart makes a new one)
   * @throws IllegalStateException if the actor failed to start or has stopped
   */
  @SuppressWarnings("unchecked")
  public T underlyingActor() {
    return (T) TestHooks.underlyingActor(ref);
  }

  /**
   * Hands {@code message} to the actor now, with no sender; what it throws reaches the caller.
   *
   * @param message the message
   */
  public void receive(Object message) {
    receive(message, ActorRef.noSender());
  }

  /**
   * Hands {@code message} to the actor now, with {@code sender} as its sender; what it throws
   * reaches the caller (a checked exception too, though undeclared) and not the supervisor.
   *
   * @param message the message
   * @param sender its sender, or {@link ActorRef#noSender()}
   */
  public void receive(Object message, ActorRef sender) {
    try {
      TestHooks.receive(ref, message, sender);
    } catch (Exception e) {
      throw TestActorRef.<RuntimeException>rethrow(e);
    }
  }

  /** Throws {@code t} as it is, checked or not. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E rethrow(Throwable t) throws E {
    throw (E) t;
  }

  /** @return the actor's plain ref (what it sees as {@code getSelf()}) */
  public ActorRef getRef() {
    return ref;
  }

  /** @return the actor's plain ref, which the runtime uses where it needs its own (a watch) */
  @Override
  public ActorRef target() {
    return ref;
  }

  @Override
  public ActorPath path() {
    return ref.path();
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    ref.tell(message, sender);
  }

  @Override
  public String toString() {
    return "TestActorRef(" + ref + ")";
  }
}
