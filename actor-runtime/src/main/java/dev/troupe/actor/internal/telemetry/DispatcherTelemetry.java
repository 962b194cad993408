package dev.troupe.actor.internal.telemetry;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One dispatcher's telemetry: its histograms and its actors grouped by class. A dispatcher holds
 * it (null when telemetry is off) only to hand each new mailbox its {@link MailboxProbe}.
 */
public final class DispatcherTelemetry {
  final SystemTelemetry system;
  final String id;
  final LogHistogram schedulingDelay = new LogHistogram();
  final LogHistogram processingTime = new LogHistogram();
  final LogHistogram mailboxDepth = new LogHistogram();
  final ConcurrentHashMap<String, ActorGroup> groups = new ConcurrentHashMap<>();

  DispatcherTelemetry(SystemTelemetry system, String id) {
    this.system = system;
    this.id = id;
  }

  /**
   * The probe of a new mailbox of this dispatcher, registered with its group; called once per
   * mailbox, when its owner is bound (before the mailbox is reachable).
   *
   * @param owner the mailbox's owner, handed unchanged to the system's identify function (this
   *     package measures; it never calls what it measures)
   * @return the probe, or null for an owner that is not an actor
   */
  public MailboxProbe probe(Object owner) {
    return system.newProbe(this, owner);
  }

  /** @return whether this dispatcher's mailboxes count their queues ({@code mailbox-depth}) */
  public boolean countsDepth() {
    return system.countsDepth();
  }

  ActorGroup group(ActorClassTelemetry actorClass) {
    return groups.computeIfAbsent(actorClass.className, k -> new ActorGroup(this, actorClass));
  }
}
