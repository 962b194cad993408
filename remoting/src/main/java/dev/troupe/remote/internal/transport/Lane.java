package dev.troupe.remote.internal.transport;

/**
 * The two outbound connections to each peer. System messages never wait behind a flood of user
 * messages: each lane has its own queue and its own TCP connection.
 */
public enum Lane {
  /** Watch, unwatch, death notices and stop. */
  CONTROL(0),
  /** User messages and selections. */
  ORDINARY(1);

  final int id;

  Lane(int id) {
    this.id = id;
  }

  /** @return the lane with that wire id, or null */
  static Lane byId(int id) {
    return id == 0 ? CONTROL : id == 1 ? ORDINARY : null;
  }

  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
