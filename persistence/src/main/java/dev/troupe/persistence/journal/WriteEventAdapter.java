package dev.troupe.persistence.journal;

/**
 * An adapter that only changes what is written: stored events are read back as they are. In a list
 * of adapters bound to one class, it takes no part in reading.
 */
public abstract class WriteEventAdapter implements EventAdapter {
  /** For subclasses. */
  protected WriteEventAdapter() {}

  /**
   * {@inheritDoc}
   *
   * <p>Empty unless overridden.
   */
  @Override
  public String manifest(Object event) {
    return "";
  }

  @Override
  public abstract Object toJournal(Object event);

  /**
   * @param event an event as the journal stored it
   * @param manifest ignored
   * @return the event itself
   */
  @Override
  public final EventSeq fromJournal(Object event, String manifest) {
    return EventSeq.single(event);
  }
}
