package dev.troupe.actor.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.internal.dispatch.Dispatchers;
import dev.troupe.actor.internal.telemetry.MailboxProbe;
import dev.troupe.actor.internal.telemetry.SystemTelemetry;
import dev.troupe.actor.internal.telemetry.TelemetrySettings;

/**
 * Connects a system to its telemetry (package {@code internal.telemetry}), which knows nothing of
 * cells: who an actor is, where restarts happen, when MBeans come and go. Kept here so that the
 * system and the cell each call it in one line.
 */
final class TelemetryWiring {
  private TelemetryWiring() {}

  /**
   * Parses {@code troupe.telemetry} (a bad value fails the system's creation, whether telemetry is
   * on or not) and, when it is on, gives the dispatchers their telemetry.
   *
   * @param system the system being built (its dead-letter ref is read later, by snapshots)
   * @param config its configuration
   * @param dispatchers its dispatchers, before the first is looked up
   * @return the telemetry, or null when it is off
   */
  static SystemTelemetry create(ActorSystemImpl system, Config config, Dispatchers dispatchers) {
    TelemetrySettings s = TelemetrySettings.from(config);
    if (!s.enabled()) {
      return null;
    }
    SystemTelemetry t =
        new SystemTelemetry(
            system.name,
            s,
            TelemetryWiring::identify,
            () -> system.deadLetters == null ? 0L : system.deadLetters.count());
    dispatchers.telemetry(t);
    return t;
  }

  /** The system is built: MBeans go up now, and come down when it has terminated. */
  static void started(ActorSystemImpl system, SystemTelemetry t) {
    if (t != null) {
      t.start();
      system.registerOnTermination(t::close);
    }
  }

  private static SystemTelemetry.Identity identify(Object owner) {
    return owner instanceof ActorCell c
        ? new SystemTelemetry.Identity(c.props.telemetryClassName(), c.self.path())
        : null;
  }

  /** The actor of {@code cell} failed and asks its supervisor what to do (its thread). */
  static void failed(ActorCell cell) {
    MailboxProbe p = cell.mailbox.probe();
    if (p != null) {
      p.failed();
    }
  }

  /** The supervisor restarts the actor of {@code cell} (its thread). */
  static void restarted(ActorCell cell) {
    MailboxProbe p = cell.mailbox.probe();
    if (p != null) {
      p.restarted();
    }
  }
}
