package dev.troupe.testkit.typed;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A typed actor a test talks through: hand {@link #getRef()} to the actor under test, then expect
 * what it sends, with bounded waits. Built on the classic testkit's test actor, so its timeouts
 * ({@code troupe.test.single-expect-default}, {@code expect-no-message-default}) and dilation
 * ({@code troupe.test.timefactor}) apply. Create with {@link ActorTestKit#createTestProbe()}.
 *
 * @param <M> the type of message the probe accepts
 */
public final class TestProbe<M> {
  private final TestKit kit;
  private final ActorRef<M> ref;

  private TestProbe(ActorSystem<?> system) {
    this.kit = new TestKit(Adapter.toClassic(system));
    this.ref = Adapter.toTyped(kit.getRef());
  }

  /**
   * @param system the system the probe lives in
   * @param <M> what it accepts
   * @return a new probe
   */
  public static <M> TestProbe<M> create(ActorSystem<?> system) {
    return new TestProbe<>(Objects.requireNonNull(system, "system"));
  }

  /**
   * @param messageClass what it accepts (for the compiler)
   * @param system the system the probe lives in
   * @param <M> what it accepts
   * @return a new probe
   */
  public static <M> TestProbe<M> create(Class<M> messageClass, ActorSystem<?> system) {
    Objects.requireNonNull(messageClass, "messageClass");
    return create(system);
  }

  /** @return the probe's ref */
  public ActorRef<M> getRef() {
    return ref;
  }

  /** @return the probe's ref (the Pekko name) */
  public ActorRef<M> ref() {
    return ref;
  }

  /**
   * Expects the next message to equal {@code expected}, within the default timeout.
   *
   * @param expected the message
   * @param <T> its type
   * @return the message received
   */
  public <T extends M> T expectMessage(T expected) {
    return kit.expectMsg(expected);
  }

  /**
   * Expects the next message to equal {@code expected}, within {@code max}.
   *
   * @param max the longest wait
   * @param expected the message
   * @param <T> its type
   * @return the message received
   */
  public <T extends M> T expectMessage(Duration max, T expected) {
    return kit.expectMsg(max, expected);
  }

  /**
   * Expects the next message to be of a class, within the default timeout.
   *
   * @param type the class
   * @param <C> its type
   * @return the message
   */
  public <C extends M> C expectMessageClass(Class<C> type) {
    return kit.expectMsgClass(type);
  }

  /**
   * Expects the next message to be of a class, within {@code max}.
   *
   * @param type the class
   * @param max the longest wait
   * @param <C> its type
   * @return the message
   */
  public <C extends M> C expectMessageClass(Class<C> type, Duration max) {
    return kit.expectMsgClass(max, type);
  }

  /** Expects no message during {@code troupe.test.expect-no-message-default}. */
  public void expectNoMessage() {
    kit.expectNoMessage();
  }

  /**
   * Expects no message during {@code max}.
   *
   * @param max how long to watch
   */
  public void expectNoMessage(Duration max) {
    kit.expectNoMessage(max);
  }

  /**
   * Receives the next message, within the default timeout.
   *
   * @return it
   * @throws AssertionError if none arrives
   */
  public M receiveMessage() {
    return receiveMessage(kit.remainingOrDefault());
  }

  /**
   * Receives the next message within {@code max}.
   *
   * @param max the longest wait
   * @return it
   * @throws AssertionError if none arrives
   */
  @SuppressWarnings("unchecked")
  public M receiveMessage(Duration max) {
    Object m = kit.receiveOne(max);
    if (m == null) {
      throw new AssertionError("timeout (" + kit.dilated(max) + ") while waiting for a message at " + ref);
    }
    return (M) m;
  }

  /**
   * Receives {@code n} messages within the default timeout.
   *
   * @param n how many
   * @return them, in order
   */
  @SuppressWarnings("unchecked")
  public List<M> receiveSeveralMessages(int n) {
    List<M> out = new ArrayList<>(n);
    for (Object o : kit.receiveN(n)) {
      out.add((M) o);
    }
    return out;
  }

  /**
   * Expects an actor to stop, within the default timeout (the probe watches it first).
   *
   * @param actor the actor
   */
  public void expectTerminated(ActorRef<?> actor) {
    expectTerminated(actor, kit.remainingOrDefault());
  }

  /**
   * Expects an actor to stop within {@code max}.
   *
   * @param actor the actor
   * @param max the longest wait
   */
  public void expectTerminated(ActorRef<?> actor, Duration max) {
    dev.troupe.actor.ActorRef classic = Adapter.toClassic(actor);
    kit.watch(classic);
    kit.expectTerminated(max, classic);
  }

  /**
   * Retries an assertion until it holds, within the default timeout.
   *
   * @param assertion throws while it does not hold
   * @param <A> its result
   * @return its result once it holds
   */
  public <A> A awaitAssert(Supplier<A> assertion) {
    return kit.awaitAssert(assertion);
  }

  /**
   * Retries an assertion until it holds, within {@code max}.
   *
   * @param max the longest wait
   * @param assertion throws while it does not hold
   * @param <A> its result
   * @return its result once it holds
   */
  public <A> A awaitAssert(Duration max, Supplier<A> assertion) {
    return kit.awaitAssert(max, assertion);
  }

  @Override
  public String toString() {
    return "TestProbe(" + ref + ")";
  }
}
