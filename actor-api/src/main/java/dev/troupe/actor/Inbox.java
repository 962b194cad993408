package dev.troupe.actor;

import dev.troupe.actor.spi.SystemSpi;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A mailbox for code that is not an actor (a {@code main} method, a request thread, a script):
 * messages sent to {@link #getRef()} wait in the inbox until a thread takes them with {@link
 * #receive}. Pekko's {@code Inbox}, by its names.
 *
 * <pre>{@code
 * try (Inbox inbox = Inbox.create(system)) {
 *   inbox.send(greeter, new Greet("Ann"));
 *   Object reply = inbox.receive(Duration.ofSeconds(1));   // TimeoutException if none came
 * }
 * }</pre>
 *
 * <p>Behind it is an actor under {@code /system}; it keeps at most {@code capacity} messages (1000
 * by default) that no thread took yet, and sends any further one to the dead letters (so a
 * forgotten inbox cannot fill the heap). Any number of threads may send and receive: each message
 * is taken once, in the order the inbox got it. {@link #close} stops the actor; until then it lives
 * as long as the system.
 */
public final class Inbox implements AutoCloseable {
  /** How many messages an inbox keeps by default. */
  public static final int DEFAULT_CAPACITY = 1000;

  private static final AtomicLong NAMES = new AtomicLong();

  private final ActorSystem system;
  private final BlockingQueue<Object> queue;
  private final ActorRef ref;

  private Inbox(ActorSystem system, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("an inbox keeps at least one message, capacity was " + capacity);
    }
    if (!(system instanceof SystemSpi spi)) {
      throw new IllegalStateException("actor system " + system.name() + " is not a Troupe runtime's system");
    }
    this.system = system;
    this.queue = new ArrayBlockingQueue<>(capacity);
    BlockingQueue<Object> q = queue;
    this.ref = spi.systemActorOf(Props.create(InboxActor.class, () -> new InboxActor(q)),
        "inbox-" + NAMES.incrementAndGet());
  }

  /**
   * @param system the system the inbox's actor runs in
   * @return a new inbox that keeps up to {@value #DEFAULT_CAPACITY} messages
   * @throws IllegalStateException if the system is terminating or terminated
   */
  public static Inbox create(ActorSystem system) {
    return create(system, DEFAULT_CAPACITY);
  }

  /**
   * @param system the system the inbox's actor runs in
   * @param capacity the most messages it keeps that no thread took yet; at least 1
   * @return a new inbox
   * @throws IllegalArgumentException if {@code capacity} is below 1
   * @throws IllegalStateException if the system is terminating or terminated
   */
  public static Inbox create(ActorSystem system, int capacity) {
    return new Inbox(Objects.requireNonNull(system, "system"), capacity);
  }

  /** @return the ref whose messages arrive in this inbox; give it out as a sender or a reply-to */
  public ActorRef getRef() {
    return ref;
  }

  /**
   * Sends {@code message} to {@code target} with this inbox as the sender, so that replies come here.
   *
   * @param target the receiver
   * @param message the message
   */
  public void send(ActorRef target, Object message) {
    target.tell(message, ref);
  }

  /**
   * Takes the oldest message, waiting for one up to {@code max}.
   *
   * @param max how long to wait; zero or negative: take one only if it is there now
   * @return the message
   * @throws TimeoutException if none came within {@code max}
   * @throws InterruptedException if the thread was interrupted while it waited
   */
  public Object receive(Duration max) throws TimeoutException, InterruptedException {
    Object m = queue.poll(Math.max(0, max.toNanos()), TimeUnit.NANOSECONDS);
    if (m == null) {
      throw new TimeoutException("no message in inbox " + ref.path() + " within " + max);
    }
    return m;
  }

  /**
   * Watches {@code target}: its {@link Terminated} arrives in this inbox like a message.
   *
   * @param target the actor to watch
   */
  public void watch(ActorRef target) {
    ref.tell(new Watch(Objects.requireNonNull(target, "target")), ActorRef.noSender());
  }

  /** Stops the inbox's actor; messages sent to it afterwards go to the dead letters. */
  @Override
  public void close() {
    system.stop(ref);
  }

  /** To the inbox's actor: watch the target. */
  private record Watch(ActorRef target) {}

  /** Hands every message but its own commands to the queue; past its capacity, to the dead letters. */
  private static final class InboxActor extends UntypedActor {
    private final BlockingQueue<Object> queue;

    InboxActor(BlockingQueue<Object> queue) {
      this.queue = queue;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Watch w) {
        getContext().watch(w.target());
      } else if (!queue.offer(message)) {
        getContext().getSystem().deadLetters().tell(new DeadLetter(message, getSender(), getSelf()), getSender());
      }
    }
  }
}
