package dev.troupe.persistence.query;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.persistence.internal.Plugins;
import dev.troupe.persistence.query.javadsl.ReadJournal;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The read journals of a system: {@code PersistenceQuery.get(system).getReadJournalFor(
 * PollingReadJournal.class, PollingReadJournal.IDENTIFIER)}. A read journal is made from the
 * configuration section its id names (a section with a {@code class} key) on first use, and the
 * same one is returned for that id from then on.
 */
public final class PersistenceQuery implements Extension {
  /** The extension's id. */
  public static final ExtensionId<PersistenceQuery> ID = PersistenceQuery::new;

  private final ActorSystem system;
  private final Map<String, ReadJournal> journals = new ConcurrentHashMap<>();

  private PersistenceQuery(ActorSystem system) {
    this.system = system;
  }

  /**
   * @param system a system
   * @return its read journals
   */
  public static PersistenceQuery get(ActorSystem system) {
    return system.registerExtension(ID);
  }

  /**
   * The read journal a configuration section names, made on first use.
   *
   * @param type what the caller uses it as: its class, or a query interface it offers
   * @param readJournalPluginId the path of its section, e.g. {@code
   *     troupe.persistence.query.polling}
   * @param <T> that type
   * @return the read journal
   * @throws ConfigurationException if the section is missing or wrong, or its plugin is no {@code
   *     type}
   */
  public <T extends ReadJournal> T getReadJournalFor(Class<T> type, String readJournalPluginId) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(readJournalPluginId, "readJournalPluginId");
    ReadJournal j = journals.get(readJournalPluginId);
    if (j == null) {
      ReadJournal made = Plugins.create(system, system.settings().config(), readJournalPluginId, ReadJournal.class,
          "read journal plugin");
      ReadJournal raced = journals.putIfAbsent(readJournalPluginId, made);
      j = raced != null ? raced : made;
    }
    if (!type.isInstance(j)) {
      throw new ConfigurationException("read journal plugin [" + readJournalPluginId + "] is a "
          + j.getClass().getName() + ", which is no " + type.getName());
    }
    return type.cast(j);
  }
}
