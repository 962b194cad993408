package dev.troupe.remote.internal.transport;

/**
 * The outbound connections to each peer, one per lane. System messages never wait behind a flood
 * of user messages, and small messages never wait behind large ones: each lane has its own queue
 * and its own TCP connection. The lane is the handshake's lane byte, so the accepting side knows
 * which limits a connection's frames have (the large-message lane reads frames up to {@code
 * maximum-large-frame-size}, every other connection up to {@code maximum-frame-size}).
 */
public enum Lane {
  /** Watch, unwatch, death notices and stop. */
  CONTROL(0),
  /** User messages and selections. */
  ORDINARY(1),
  /** User messages to {@code troupe.remote.large-message-destinations}; only when that is set. */
  LARGE(2);

  final int id;

  Lane(int id) {
    this.id = id;
  }

  /** @return the lane with that wire id, or null */
  static Lane byId(int id) {
    return switch (id) {
      case 0 -> CONTROL;
      case 1 -> ORDINARY;
      case 2 -> LARGE;
      default -> null;
    };
  }

  @Override
  public String toString() {
    return this == LARGE ? "large-message" : name().toLowerCase(java.util.Locale.ROOT);
  }
}
