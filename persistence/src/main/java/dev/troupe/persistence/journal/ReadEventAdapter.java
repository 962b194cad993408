package dev.troupe.persistence.journal;

/**
 * An adapter that only changes what is read back (an upcaster): events are written as they are. In
 * a list of adapters bound to one class, it takes no part in writing.
 */
public abstract class ReadEventAdapter implements EventAdapter {
  /** For subclasses. */
  protected ReadEventAdapter() {}

  /**
   * @param event an event
   * @return {@code ""}
   */
  @Override
  public final String manifest(Object event) {
    return "";
  }

  /**
   * @param event an event a persistent actor persists
   * @return the event itself
   */
  @Override
  public final Object toJournal(Object event) {
    return event;
  }

  @Override
  public abstract EventSeq fromJournal(Object event, String manifest);
}
