package dev.troupe.remote.internal;

import java.util.concurrent.CompletableFuture;

/**
 * A frame of the transport itself on the control lane ({@link Wire}): a heartbeat, its response,
 * or the notice that this node leaves. Never a {@code Dropped} event when it does not go out.
 *
 * @param kind {@link Wire#HEARTBEAT}, {@link Wire#HEARTBEAT_RESPONSE} or {@link Wire#LEAVING}
 * @param done completed once the frame is written or given up; null when nobody waits for it
 */
record ControlFrame(int kind, CompletableFuture<Void> done) implements Outbound {
  static final ControlFrame HEARTBEAT = new ControlFrame(Wire.HEARTBEAT, null);
  static final ControlFrame HEARTBEAT_RESPONSE = new ControlFrame(Wire.HEARTBEAT_RESPONSE, null);

  /** @return a leaving notice whose {@link #done()} tells when it is written */
  static ControlFrame leaving() {
    return new ControlFrame(Wire.LEAVING, new CompletableFuture<>());
  }

  /** The frame was written, or will never be. */
  void finished() {
    if (done != null) {
      done.complete(null);
    }
  }
}
