package dev.troupe.actor.typed;

import java.util.Objects;

/**
 * Where a spawned typed actor runs: its dispatcher and mailbox, by the ids a classic {@link
 * dev.troupe.actor.Props} takes ({@code spawn(behavior, "name", Props.empty().withDispatcher("my-dispatcher"))}).
 * Immutable.
 */
public final class Props {
  private static final Props EMPTY = new Props(null, null);

  private final String dispatcher;
  private final String mailbox;

  private Props(String dispatcher, String mailbox) {
    this.dispatcher = dispatcher;
    this.mailbox = mailbox;
  }

  /** @return the default dispatcher and mailbox */
  public static Props empty() {
    return EMPTY;
  }

  /**
   * @param id a dispatcher's config path (an unknown one fails the spawn with a {@link
   *     dev.troupe.actor.ConfigurationException})
   * @return these props on that dispatcher
   */
  public Props withDispatcher(String id) {
    return new Props(Objects.requireNonNull(id, "id"), mailbox);
  }

  /**
   * @param id a mailbox's config path
   * @return these props with that mailbox
   */
  public Props withMailbox(String id) {
    return new Props(dispatcher, Objects.requireNonNull(id, "id"));
  }

  /** @return the dispatcher id, or null for the default */
  public String dispatcher() {
    return dispatcher;
  }

  /** @return the mailbox id, or null for the default */
  public String mailbox() {
    return mailbox;
  }

  /**
   * These settings applied to classic props.
   *
   * @param classic the props of the actor that runs the behaviour
   * @return the classic props with this dispatcher and mailbox
   */
  public dev.troupe.actor.Props applyTo(dev.troupe.actor.Props classic) {
    dev.troupe.actor.Props p = classic;
    if (dispatcher != null) {
      p = p.withDispatcher(dispatcher);
    }
    if (mailbox != null) {
      p = p.withMailbox(mailbox);
    }
    return p;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Props p && Objects.equals(dispatcher, p.dispatcher) && Objects.equals(mailbox, p.mailbox);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dispatcher, mailbox);
  }

  @Override
  public String toString() {
    return "Props(dispatcher=" + dispatcher + ", mailbox=" + mailbox + ")";
  }
}
