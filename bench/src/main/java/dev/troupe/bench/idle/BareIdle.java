package dev.troupe.bench.idle;

/** The bare JVM: no actor system; what every other side is measured against. */
final class BareIdle implements IdleEngine {
  @Override
  public void start(String name) {}

  @Override
  public void createActors() {}

  @Override
  public void burst(int roundTrips) {}

  @Override
  public long pickupNanos() {
    return 0;
  }

  @Override
  public void stop() {}
}
