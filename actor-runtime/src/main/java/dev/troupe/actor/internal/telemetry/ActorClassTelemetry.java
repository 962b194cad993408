package dev.troupe.actor.internal.telemetry;

import java.util.concurrent.atomic.LongAdder;

/**
 * One actor class over all dispatchers: its restarts, its actors' starts, stops and failures (each
 * counted once per actor event, never per message), and its processing-time samples.
 */
final class ActorClassTelemetry {
  final String className;
  final LongAdder restarts = new LongAdder();
  final LongAdder started = new LongAdder();
  final LongAdder stopped = new LongAdder();
  final LongAdder failures = new LongAdder();
  final LogHistogram processingTime = new LogHistogram();

  ActorClassTelemetry(String className) {
    this.className = className;
  }
}
