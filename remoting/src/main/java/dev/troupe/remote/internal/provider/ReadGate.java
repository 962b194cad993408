package dev.troupe.remote.internal.provider;

import io.netty.channel.Channel;

/**
 * Whether one accepted connection reads: it stops (Netty's {@code autoRead} off) while any of the
 * queues it feeds holds it back, and reads again once none does. The queues that hold a
 * connection back are its {@link InboundSelections} and each {@link InboundLane} it overfilled;
 * each holds it at most once and lets go once, so one queue that drains cannot turn reading on
 * while another is still full. Any thread; guarded by this object's lock, so that the last
 * {@code setAutoRead} called is always the one that matches the count.
 */
final class ReadGate {
  private final Channel channel;
  private int holds; // guarded by this

  ReadGate(Channel channel) {
    this.channel = channel;
  }

  /** One more queue holds the connection back: it stops reading, if it was reading. */
  synchronized void hold() {
    if (holds++ == 0) {
      channel.config().setAutoRead(false);
    }
  }

  /** A queue that held the connection back lets it go: it reads again when none holds it. */
  synchronized void release() {
    if (holds == 0) {
      throw new IllegalStateException("released more often than held");
    }
    if (--holds == 0) {
      channel.config().setAutoRead(true); // from here, reading resumes on the event loop
    }
  }

  /** @return whether some queue holds the connection back, for tests */
  synchronized boolean held() {
    return holds > 0;
  }
}
