package dev.troupe.actor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An {@link AbstractFSM} that keeps its last {@link #logDepth()} events, each with the state it
 * arrived in and that state's data: {@link #getLog()} returns them (oldest first), and when the
 * machine stops with a {@code Failure} they are logged at ERROR after the failure, so that the
 * events that led to it are in the log.
 *
 * <pre>{@code
 * public final class Door extends AbstractLoggingFSM<DoorState, Integer> {
 *   @Override public int logDepth() { return 12; }
 *   ...
 * }
 * }</pre>
 *
 * <p>Keeping costs one small object per event and an array of {@code logDepth()} slots; with the
 * default depth of 0 nothing is kept.
 *
 * @param <S> the state-name type
 * @param <D> the state-data type
 */
public abstract class AbstractLoggingFSM<S, D> extends AbstractFSM<S, D> {
  private FSM.LogEntry<S, D>[] ring; // null until the first event; length logDepth()
  private int next; // the slot the next event goes to
  private long kept; // events kept so far

  /** For subclasses, which configure the machine in their constructor. */
  protected AbstractLoggingFSM() {}

  /**
   * How many of the last events to keep; read once, at the first event. Override it to keep some.
   *
   * @return the number of events kept, 0 (the default) for none
   */
  public int logDepth() {
    return 0;
  }

  /** @return the events kept, the oldest first; empty with a depth of 0 */
  public final List<FSM.LogEntry<S, D>> getLog() {
    if (ring == null || ring.length == 0 || kept == 0) {
      return List.of();
    }
    int n = (int) Math.min(kept, ring.length);
    List<FSM.LogEntry<S, D>> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(ring[Math.floorMod(next - n + i, ring.length)]);
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  final void logEvent(S state, D data, Object event) {
    if (ring == null) {
      int depth = logDepth();
      if (depth < 0) {
        throw new IllegalStateException(getClass().getName() + ".logDepth() must not be negative, was " + depth);
      }
      ring = new FSM.LogEntry[depth];
    }
    if (ring.length > 0) {
      ring[next] = new FSM.LogEntry<>(state, data, event);
      next = next + 1 == ring.length ? 0 : next + 1;
      kept++;
    }
  }

  @Override
  final void logEventsBeforeFailure() {
    List<FSM.LogEntry<S, D>> entries = getLog();
    if (!entries.isEmpty()) {
      StringBuilder b = new StringBuilder("the last ").append(entries.size()).append(" events before the failure:");
      for (FSM.LogEntry<S, D> e : entries) {
        b.append("\n  in state ").append(e.stateName()).append(" with data ").append(e.stateData())
            .append(": ").append(e.event());
      }
      log().error(b.toString());
    }
  }
}
