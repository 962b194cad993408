package dev.troupe.actor.internal.telemetry;

/** The histograms of one actor whose path matched {@code troupe.telemetry.actor-paths}. */
final class ActorDetail {
  final String path;
  final LogHistogram schedulingDelay = new LogHistogram();
  final LogHistogram processingTime = new LogHistogram();
  final LogHistogram mailboxDepth = new LogHistogram();

  ActorDetail(String path) {
    this.path = path;
  }
}
