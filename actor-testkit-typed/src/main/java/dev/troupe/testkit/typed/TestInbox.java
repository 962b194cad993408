package dev.troupe.testkit.typed;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A ref with no actor behind it that keeps what is sent to it, for synchronous tests with {@link
 * BehaviorTestKit}: a behaviour under test sends to it, the test reads it at once (nothing waits).
 * Thread-safe, so that a future completing elsewhere may send to it too.
 *
 * @param <T> the type of message it accepts
 */
public final class TestInbox<T> {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final ConcurrentLinkedQueue<T> messages = new ConcurrentLinkedQueue<>();
  private final ActorRef<T> ref;
  private final Consumer<T> sink;

  private TestInbox(String name, Consumer<T> sink) {
    this.sink = sink;
    ActorPath path = ActorPath.fromString("troupe://BehaviorTestKit/inbox/" + name).withUid(COUNTER.incrementAndGet());
    this.ref = new InboxRef<>(path, this);
  }

  /**
   * @param <T> what it accepts
   * @return a new inbox
   */
  public static <T> TestInbox<T> create() {
    return create("inbox");
  }

  /**
   * @param name names its ref's path
   * @param <T> what it accepts
   * @return a new inbox
   */
  public static <T> TestInbox<T> create(String name) {
    return new TestInbox<>(Objects.requireNonNull(name, "name"), null);
  }

  /** An inbox that hands each message to {@code sink} instead of keeping it. */
  static <T> TestInbox<T> forwarding(String name, Consumer<T> sink) {
    return new TestInbox<>(name, Objects.requireNonNull(sink, "sink"));
  }

  /** @return the ref to hand to the behaviour under test */
  public ActorRef<T> getRef() {
    return ref;
  }

  void add(T message) {
    Objects.requireNonNull(message, "message");
    if (sink != null) {
      sink.accept(message);
      return;
    }
    messages.add(message);
  }

  /**
   * @return the oldest message, removed
   * @throws AssertionError if there is none
   */
  public T receiveMessage() {
    T m = messages.poll();
    if (m == null) {
      throw new AssertionError("no message in " + ref);
    }
    return m;
  }

  /**
   * Asserts the oldest message equals {@code expected}, and removes it.
   *
   * @param expected the message
   * @return this inbox
   */
  public TestInbox<T> expectMessage(T expected) {
    T m = receiveMessage();
    if (!m.equals(expected)) {
      throw new AssertionError("expected " + expected + " in " + ref + " but found " + m);
    }
    return this;
  }

  /** @return whether a message is waiting */
  public boolean hasMessages() {
    return !messages.isEmpty();
  }

  /** @return every waiting message, oldest first, removed */
  public List<T> getAllReceived() {
    List<T> out = new ArrayList<>();
    for (T m; (m = messages.poll()) != null; ) {
      out.add(m);
    }
    return out;
  }

  @Override
  public String toString() {
    return "TestInbox(" + ref.path() + ")";
  }

  /** The inbox's ref: {@code tell} adds to the inbox. */
  private record InboxRef<T>(ActorPath path, TestInbox<T> inbox) implements ActorRef<T> {
    @Override
    public void tell(T message) {
      inbox.add(message);
    }

    @Override
    public boolean equals(Object o) {
      return o == this;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }

    @Override
    public String toString() {
      return path.toString();
    }
  }
}
