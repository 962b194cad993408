package dev.troupe.persistence.journal;

/**
 * Turns the events a persistent actor persists into what its journal stores, and what the journal
 * replays into the events the actor sees: an old stored event upcast to its new class, split into
 * several, or dropped. Bound to event classes in a journal plugin's section:
 *
 * <pre>{@code
 * troupe.persistence.journal.file {
 *   event-adapters { orders = "com.example.OrderAdapter" }
 *   event-adapter-bindings { "com.example.OrderPlacedV1" = orders }
 * }
 * }</pre>
 *
 * <p>One instance per journal plugin serves every actor of the system, from many threads at once:
 * keep it free of state, or thread-safe. It is made by its public constructor taking the {@code
 * ActorSystem}, or else its public no-argument one.
 *
 * <p>The journal SPI stores no manifest: {@link #fromJournal} is given {@code ""}. Dispatch on the
 * stored event's class instead (a serializer such as jackson-json keeps it). {@link #manifest} is
 * part of the interface for Pekko's sake and is not called.
 *
 * @see WriteEventAdapter
 * @see ReadEventAdapter
 */
public interface EventAdapter {
  /**
   * @param event an event as {@link #toJournal} returns it
   * @return a string naming its schema (not stored by the journal SPI: see the class comment)
   */
  String manifest(Object event);

  /**
   * @param event an event a persistent actor persists (without its {@code Tagged} wrapper)
   * @return what the journal stores instead, not null; a {@link dev.troupe.persistence.Tagged} adds
   *     its tags to the event's own
   */
  Object toJournal(Object event);

  /**
   * @param event an event as the journal stored it
   * @param manifest its manifest; {@code ""} where the journal stores none (all journals, for now)
   * @return the events the actor sees instead, in order, not null: none drops the event, several
   *     all get its sequence number
   */
  EventSeq fromJournal(Object event, String manifest);
}
