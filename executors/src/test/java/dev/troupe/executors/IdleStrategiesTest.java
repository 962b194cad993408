package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class IdleStrategiesTest {

  @Test
  void higherLevelsSpinLongerAndParkShorter() {
    BackoffIdleStrategy previous = IdleStrategies.forCpuLevel(1);
    assertEquals(0, previous.maxSpins(), "level 1 parks almost at once");
    for (int level = 2; level <= 10; level++) {
      BackoffIdleStrategy s = IdleStrategies.forCpuLevel(level);
      assertTrue(s.maxSpins() > previous.maxSpins(), "more spins at level " + level);
      assertTrue(s.maxYields() >= previous.maxYields(), "no fewer yields at level " + level);
      assertTrue(
          s.maxParkPeriodNanos() <= previous.maxParkPeriodNanos(),
          "no longer parks at level " + level);
      previous = s;
    }
  }

  @Test
  void theDefaultLevelIsFiveWithAtMostTenMillisecondParks() {
    BackoffIdleStrategy s = IdleStrategies.forCpuLevel(IdleStrategies.DEFAULT_CPU_LEVEL);
    assertEquals(5, IdleStrategies.DEFAULT_CPU_LEVEL);
    assertEquals(TimeUnit.MILLISECONDS.toNanos(10), s.maxParkPeriodNanos());
  }

  @Test
  void backoffSpinsYieldsThenParksAndResetStartsOver() {
    BackoffIdleStrategy s = new BackoffIdleStrategy(3, 2, 1_000, 4_000);
    long start = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      s.idle(); // 3 spins, 2 yields, then parks of 1, 2, 4, 4, ... µs
    }
    s.idle(1); // work found: reset
    s.idle(0);
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "parks are bounded");
    assertTrue(s.toString().contains("maxSpins=3"), s.toString());
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void backoffSaysWhenItWouldParkAndThenParksUntilWokenWithoutADeadline() throws Exception {
    BackoffIdleStrategy s = new BackoffIdleStrategy(2, 1, 1_000, 4_000);
    assertTrue(!s.parksNext(), "spinning first");
    s.idleUntilWoken(); // spin
    s.idleUntilWoken(); // spin
    assertTrue(!s.parksNext(), "then yielding");
    s.idleUntilWoken(); // yield
    assertTrue(s.parksNext(), "then parking");
    Thread parker = new Thread(s::idleUntilWoken, "idle-until-woken");
    parker.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (parker.getState() != Thread.State.WAITING && System.nanoTime() - deadline < 0) {
      Thread.onSpinWait(); // bounded: until the thread is parked (no deadline: WAITING)
    }
    assertEquals(Thread.State.WAITING, parker.getState(), "parked without a deadline");
    LockSupport.unpark(parker);
    parker.join(10_000);
    assertTrue(!parker.isAlive(), "an unpark ends the park");
    s.reset();
    assertTrue(!s.parksNext(), "reset: spinning again");
  }

  @Test
  void spinningAndYieldingStrategiesNeverPark() {
    assertTrue(!BusySpinIdleStrategy.INSTANCE.parksNext());
    assertTrue(!YieldingIdleStrategy.INSTANCE.parksNext());
  }
}
