package dev.troupe.actor.internal.ref;

import java.util.Locale;

/**
 * Why a message went to dead letters: the category that the place which gave up on it knows, and
 * that the {@code DeadLetter} event itself does not carry (its public record stays as it is). The
 * dead-letters ref counts each category ({@link DeadLettersRef#count(DeadLetterReason)}); the
 * Micrometer binder publishes the counts by {@link #tag()}, its {@code reason} tag.
 */
public enum DeadLetterReason {
  /**
   * The recipient had terminated: its mailbox was closed (also what was still queued when it
   * stopped), it had left its balancing team, or it was an ask's temporary ref whose ask was over.
   */
  RECIPIENT_STOPPED,
  /** The recipient's bounded mailbox was full. */
  MAILBOX_FULL,
  /** No actor lives at the path: a ref to a path never (or no longer) used, or a selection that matched nothing. */
  NO_SUCH_ACTOR,
  /** A router had no routee to give the message to. */
  NO_ROUTEE,
  /** Sent to {@code system.deadLetters()} on purpose (by user code, or a component that republished a {@code DeadLetter}). */
  EXPLICIT,
  /** A caller that named no reason. */
  OTHER;

  private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '-');

  /** @return the reason as a meter tag: {@code recipient-stopped}, {@code mailbox-full}, ... */
  public String tag() {
    return tag;
  }

  /**
   * @param tag a reason's {@link #tag()}
   * @return that reason
   * @throws IllegalArgumentException if no reason has that tag
   */
  public static DeadLetterReason ofTag(String tag) {
    for (DeadLetterReason r : values()) {
      if (r.tag.equals(tag)) {
        return r;
      }
    }
    throw new IllegalArgumentException("no dead-letter reason is tagged " + tag);
  }
}
