package dev.troupe.actor.internal.telemetry;

import java.util.concurrent.atomic.LongAdder;

/** One actor class over all dispatchers: its restarts and its processing-time samples. */
final class ActorClassTelemetry {
  final String className;
  final LongAdder restarts = new LongAdder();
  final LogHistogram processingTime = new LogHistogram();

  ActorClassTelemetry(String className) {
    this.className = className;
  }
}
