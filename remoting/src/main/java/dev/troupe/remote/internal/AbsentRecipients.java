package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.pattern.AskFailedException;
import dev.troupe.serialization.RemoteFailure;
import java.util.List;
import java.util.function.Predicate;

/**
 * Fast failure of remote asks on both of their ends.
 *
 * <p><b>Here, the recipient's node.</b> A user message from another node to a path of this node
 * where no actor lives (stopped, or never there) goes to dead letters. When its sender is the
 * temporary reply ref of an ask on the node it came from, that ask can never be answered, so this
 * node also answers it, once, with a {@code Status.Failure(AskFailedException("no actor at
 * <path>"))}: the ask fails in a round trip instead of waiting out its timeout. (Pekko and Akka
 * answer nothing; their ask times out.) The answer cannot be turned against anyone:
 *
 * <ul>
 *   <li>it goes only to a sender under {@code /temp} of the very node whose connection carried the
 *       message (never to a third address a sender path names), and with no sender of its own, so
 *       nothing ever answers it back;
 *   <li>only to a node that this node dialled itself and whose incarnation answered there (its
 *       association is confirmed): an answer never makes this node connect anywhere because a
 *       peer said so, not even to the origin that a handshake claimed;
 *   <li>at most one per message that arrived, smaller than a short message, and at most {@value
 *       #ANSWERS_PER_SECOND} a second for the whole node; beyond that the message only goes to dead
 *       letters and its ask times out as before;
 *   <li>an {@code Identify} is not answered this way (dead letters already answer it with an empty
 *       identity).
 * </ul>
 *
 * <p><b>There, the asking node.</b> Such an answer arrives as a {@link RemoteFailure} naming {@link
 * AskFailedException}; for a temporary reply ref it is turned back into an {@code
 * AskFailedException} with the same message, so that every ask that Troupe knows cannot be answered
 * fails with the same type, wherever the reason was found.
 *
 * <p>Thread-safety: any thread (the limit's window is guarded by this object).
 */
final class AbsentRecipients {
  /** Answers to asks of absent recipients that a node sends per second at most. */
  static final int ANSWERS_PER_SECOND = 100;

  private static final long SECOND = 1_000_000_000L;

  private final Address self;
  private final Predicate<Address> dialled;
  private long windowStart = System.nanoTime() - SECOND;
  private int inWindow;

  /**
   * @param self this node's address
   * @param dialled whether a node's current incarnation was acknowledged on a connection this
   *     node dialled
   */
  AbsentRecipients(Address self, Predicate<Address> dialled) {
    this.self = self;
    this.dialled = dialled;
  }

  /**
   * @param recipient the resolved recipient of a user message that arrived from {@code origin}
   * @param sender its sender, or null
   * @param message the message
   * @param origin the node whose connection carried it
   * @return the answer to send to {@code sender} (a {@link RemoteActorRef}), or null if none is due
   */
  Status.Failure answerFor(InternalActorRef recipient, InternalActorRef sender, Object message, Address origin) {
    if (sender == null
        || !recipient.isTerminated()
        || message instanceof Identify
        || !(sender instanceof RemoteActorRef)
        || !isTemp(sender.path())
        || !sender.path().address().equals(origin)
        || !dialled.test(origin)
        || !permit()) {
      return null;
    }
    return new Status.Failure(
        new AskFailedException(
            "no actor at " + recipient.path().toStringWithoutAddress() + " on " + self + " (message of type "
                + message.getClass().getName() + ")"));
  }

  /**
   * @param message a user message that arrived for {@code recipient}, a ref of this node
   * @return the message to deliver: an answer of {@link #answerFor} on another node turned back into
   *     an {@link AskFailedException} when it is for a temporary reply ref; else {@code message}
   */
  static Object restored(InternalActorRef recipient, Object message) {
    if (message instanceof Status.Failure f
        && f.cause() instanceof RemoteFailure rf
        && rf.getCause() == null
        && AskFailedException.class.getName().equals(rf.originalClassName())
        && isTemp(recipient.path())) {
      return new Status.Failure(new AskFailedException(rf.getMessage()));
    }
    return message;
  }

  private static boolean isTemp(ActorPath path) {
    List<String> elements = path.elements();
    return elements.size() == 2 && elements.get(0).equals("temp");
  }

  private synchronized boolean permit() {
    long now = System.nanoTime();
    if (now - windowStart >= SECOND) {
      windowStart = now;
      inWindow = 0;
    }
    if (inWindow >= ANSWERS_PER_SECOND) {
      return false;
    }
    inWindow++;
    return true;
  }
}
