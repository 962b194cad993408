package dev.troupe.actor.internal.dispatch;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dispatchers and mailbox types of one actor system, created on first use of their id and
 * cached: config is parsed once per id, never on the message path.
 */
public final class Dispatchers {
  private final Config config;
  private final String systemName;
  private final boolean daemon;
  private final Thread.UncaughtExceptionHandler onError;
  private final ConcurrentHashMap<String, Dispatcher> dispatchers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, MailboxType> mailboxes = new ConcurrentHashMap<>();
  private volatile boolean shutdown;

  /**
   * @param config the system's full configuration
   * @param systemName used in thread names
   * @param daemon whether dispatcher threads are daemons
   * @param onError receives failures that escaped a mailbox run
   */
  public Dispatchers(
      Config config, String systemName, boolean daemon, Thread.UncaughtExceptionHandler onError) {
    this.config = config;
    this.systemName = systemName;
    this.daemon = daemon;
    this.onError = onError;
  }

  /** @return the default dispatcher */
  public Dispatcher defaultDispatcher() {
    return lookup(DispatcherSettings.DEFAULT_ID);
  }

  /**
   * The dispatcher configured at {@code id}, created on first use.
   *
   * @param id the config path
   * @return the dispatcher
   * @throws dev.troupe.actor.ConfigurationException if unknown or malformed
   */
  public Dispatcher lookup(String id) {
    Dispatcher d = dispatchers.get(id);
    if (d != null) {
      return d;
    }
    synchronized (this) { // creation only: starts threads once per id
      d = dispatchers.get(id);
      if (d == null) {
        if (shutdown) {
          throw new IllegalStateException("actor system " + systemName + " is terminated");
        }
        DispatcherSettings s = DispatcherSettings.from(config, id);
        d = Dispatcher.create(s, systemName + "-" + id, daemon, onError);
        dispatchers.put(id, d);
      }
      return d;
    }
  }

  /**
   * The mailbox type configured at {@code id}.
   *
   * @param id the config path, e.g. {@code bounded-mailbox}
   * @return the type
   * @throws dev.troupe.actor.ConfigurationException if unknown or malformed
   */
  public MailboxType mailboxType(String id) {
    MailboxType t = mailboxes.get(id);
    if (t == null) {
      t = MailboxType.from(id, DispatcherSettings.section(config, id, "mailbox"));
      mailboxes.putIfAbsent(id, t);
    }
    return t;
  }

  /** Shuts every dispatcher down; their threads exit after their current batch. */
  public synchronized void shutdown() {
    shutdown = true;
    for (Dispatcher d : dispatchers.values()) {
      d.shutdown();
    }
  }

  /** @return the dispatchers created so far */
  public synchronized List<Dispatcher> all() {
    return new ArrayList<>(dispatchers.values());
  }
}
