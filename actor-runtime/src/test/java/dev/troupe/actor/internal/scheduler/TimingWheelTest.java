package dev.troupe.actor.internal.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The wheel's earliest-due search, which the timer thread sleeps on when nothing else happens. */
class TimingWheelTest {

  private static WheelTimer timerAt(long targetTick) {
    WheelTimer t = new WheelTimer(null, () -> {}, Runnable::run, 0L);
    t.targetTick = targetTick;
    return t;
  }

  @Test
  void theEarliestDueTimerIsFoundInThisRevolutionOrAnyLaterOne() {
    TimingWheel wheel = new TimingWheel(8);
    wheel.skipTo(100);
    wheel.add(timerAt(100 + 8 * 3 + 5)); // three revolutions on, in bucket 5
    assertEquals(100 + 8 * 3 + 5, wheel.nextDueTick(), "only a later revolution");
    wheel.add(timerAt(100 + 8 + 2)); // next revolution, bucket 2: earlier than the first
    assertEquals(100 + 8 + 2, wheel.nextDueTick());
    wheel.add(timerAt(100 + 6)); // this revolution
    assertEquals(100 + 6, wheel.nextDueTick());
    wheel.add(timerAt(100)); // the next boundary to process
    assertEquals(100, wheel.nextDueTick());
  }

  @Test
  void theSearchAgreesWithTheLeastTargetForRandomTimersAsTheWheelTurns() {
    SplittableRandom random = new SplittableRandom(42);
    TimingWheel wheel = new TimingWheel(16);
    List<WheelTimer> linked = new ArrayList<>();
    for (int step = 0; step < 2_000; step++) {
      if (random.nextInt(3) > 0) {
        WheelTimer t = timerAt(wheel.tick() + random.nextInt(100));
        wheel.add(t);
        linked.add(t);
      } else if (!linked.isEmpty()) {
        wheel.expireNext(linked::remove);
      }
      if (wheel.size() > 0) {
        long least = Long.MAX_VALUE;
        for (WheelTimer t : linked) {
          least = Math.min(least, t.targetTick);
        }
        assertEquals(least, wheel.nextDueTick(), "step " + step);
      }
    }
  }
}
