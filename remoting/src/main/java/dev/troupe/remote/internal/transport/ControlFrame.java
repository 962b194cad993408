package dev.troupe.remote.internal.transport;

import java.util.concurrent.CompletableFuture;

/**
 * A frame of the transport itself that an outbound control lane writes ({@link Wire}): a heartbeat
 * or the notice that this node leaves (heartbeat responses go out on the heartbeat's own accepted
 * connection, not through a lane). Never a {@code Dropped} event when it does not go out.
 *
 * @param kind {@link Wire#HEARTBEAT} or {@link Wire#LEAVING}
 * @param done completed once the frame is written or given up; null when nobody waits for it
 */
public record ControlFrame(int kind, CompletableFuture<Void> done) implements Outbound {
  public static final ControlFrame HEARTBEAT = new ControlFrame(Wire.HEARTBEAT, null);

  /** @return a leaving notice whose {@link #done()} tells when it is written */
  public static ControlFrame leaving() {
    return new ControlFrame(Wire.LEAVING, new CompletableFuture<>());
  }

  /** The frame was written, or will never be. */
  public void finished() {
    if (done != null) {
      done.complete(null);
    }
  }
}
