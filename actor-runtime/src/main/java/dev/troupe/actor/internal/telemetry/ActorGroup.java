package dev.troupe.actor.internal.telemetry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The actors of one class on one dispatcher: the live ones' probes, and the counts of those that
 * stopped. Snapshots sum the two; a count is therefore the same whether an actor is alive or not,
 * except during the instant an actor retires, when it may be missed (it is exact again at once).
 */
final class ActorGroup {
  final DispatcherTelemetry dispatcher;
  final ActorClassTelemetry actorClass;
  final Set<MailboxProbe> live = ConcurrentHashMap.newKeySet();
  private final LongAdder retiredMessages = new LongAdder();
  private final LongAdder retiredRuns = new LongAdder();

  ActorGroup(DispatcherTelemetry dispatcher, ActorClassTelemetry actorClass) {
    this.dispatcher = dispatcher;
    this.actorClass = actorClass;
  }

  /** Adds a retiring probe's counts to the group, then forgets the probe. */
  void retire(MailboxProbe p) {
    live.remove(p);
    actorClass.stopped.increment();
    retire(p.messages(), p.runs());
    if (p.detail != null) {
      dispatcher.system.forget(p);
    }
  }

  void retire(long messages, long runs) {
    retiredMessages.add(messages);
    retiredRuns.add(runs);
  }

  /** @return {messages, runs} over live and stopped actors */
  long[] counts() {
    long m = retiredMessages.sum();
    long r = retiredRuns.sum();
    for (MailboxProbe p : live) {
      m += p.messages();
      r += p.runs();
    }
    return new long[] {m, r};
  }
}
