package dev.troupe.routing;

/**
 * A snapshot of one routee's load, read from O(1) hints its mailbox keeps; the input of a {@link
 * Resizer}. Hints may be stale by the time they are read. Routees whose mailbox the router cannot
 * see (e.g. added refs of another system) read as idle.
 *
 * @param busy whether the routee's mailbox is scheduled or running (it is processing a message or
 *     about to)
 * @param hasMessages whether messages may be waiting in its mailbox
 * @param sizeHint an O(1) estimate of waiting messages: exact for bounded mailboxes, only 0 or 1
 *     for unbounded ones, which keep no count
 */
public record RouteeLoad(boolean busy, boolean hasMessages, int sizeHint) {
  /** A routee with no visible load. */
  public static final RouteeLoad IDLE = new RouteeLoad(false, false, 0);
}
