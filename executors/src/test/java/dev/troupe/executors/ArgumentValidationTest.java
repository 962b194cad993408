package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ArgumentValidationTest {

  private static void rejects(String expectedMessage, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertEquals(expectedMessage, e.getMessage());
  }

  private static void rejectsNull(String expectedMessage, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call);
    assertEquals(expectedMessage, e.getMessage());
  }

  @Test
  void theBuilderNamesTheInvalidArgument() {
    AffinityPool.Builder b = AffinityPool.builder();
    rejects("parallelism must be between 1 and 32767, was 0", () -> b.parallelism(0));
    rejects("parallelism must be between 1 and 32767, was 40000", () -> b.parallelism(40_000));
    rejects("taskQueueSize must be between 2 and 1073741824, was 1", () -> b.taskQueueSize(1));
    rejects("idleCpuLevel must be between 1 and 10, was 0", () -> b.idleCpuLevel(0));
    rejects("idleCpuLevel must be between 1 and 10, was 11", () -> b.idleCpuLevel(11));
    rejects(
        "fairDistributionThreshold must be between 0 and 1048576, was -1",
        () -> b.fairDistributionThreshold(-1));
    rejectsNull("threadFactory must not be null", () -> b.threadFactory(null));
    rejectsNull("rejectionHandler must not be null", () -> b.rejectionHandler(null));
    rejectsNull("queueSelector must not be null", () -> b.queueSelector(null));
    rejectsNull("errorHandler must not be null", () -> b.errorHandler(null));
    rejectsNull("idleStrategy must not be null", () -> b.idleStrategy(null));
  }

  @Test
  void aThreadFactoryReturningNullFailsTheBuild() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> AffinityPool.builder().parallelism(1).threadFactory(r -> null).build());
    assertEquals(true, e.getMessage().contains("returned null"), e.getMessage());
  }

  @Test
  void idleStrategiesNameTheInvalidArgument() {
    rejects("level must be between 1 and 10, was 0", () -> IdleStrategies.forCpuLevel(0));
    rejects("maxSpins must be >= 0, was -1", () -> new BackoffIdleStrategy(-1, 0, 1, 1));
    rejects("maxYields must be >= 0, was -1", () -> new BackoffIdleStrategy(0, -1, 1, 1));
    rejects("minParkPeriodNanos must be >= 1, was 0", () -> new BackoffIdleStrategy(0, 0, 0, 1));
    rejects(
        "maxParkPeriodNanos must be >= minParkPeriodNanos (10), was 5",
        () -> new BackoffIdleStrategy(0, 0, 10, 5));
    rejects(
        "fairDistributionThreshold must be between 0 and 1048576, was 2000000",
        () -> QueueSelector.affinityFirst(2_000_000));
  }

  @Test
  void parallelismScalesClampsAndValidates() {
    assertEquals(6, Parallelism.scaled(1, 1.5, 64, 4), "ceil(4 * 1.5)");
    assertEquals(3, Parallelism.scaled(1, 0.5, 64, 5), "ceil(5 * 0.5) = 3");
    assertEquals(8, Parallelism.scaled(8, 1.0, 64, 2), "clamped to min");
    assertEquals(64, Parallelism.scaled(1, 100.0, 64, 16), "clamped to max");
    assertEquals(
        Math.min(64, Runtime.getRuntime().availableProcessors()),
        Parallelism.scaled(1, 1.0, 64),
        "uses the available processors");
    rejects("min must be >= 1, was 0", () -> Parallelism.scaled(0, 1.0, 4));
    rejects("factor must be finite and > 0, was 0.0", () -> Parallelism.scaled(1, 0.0, 4));
    rejects("factor must be finite and > 0, was NaN", () -> Parallelism.scaled(1, Double.NaN, 4));
    rejects(
        "factor must be finite and > 0, was Infinity",
        () -> Parallelism.scaled(1, Double.POSITIVE_INFINITY, 4));
    rejects("max must be >= min (4), was 2", () -> Parallelism.scaled(4, 1.0, 2));
  }

  @Test
  void factoriesNameTheInvalidArgument() {
    rejects("prefix must not be blank", () -> new NamedThreadFactory(" ", true));
    rejectsNull("prefix must not be null", () -> new NamedThreadFactory(null, true));
    rejects(
        "parallelism must be between 1 and 32767, was 0",
        () -> ExecutorFactories.forkJoin(0, true, "fj", true, null));
    rejects(
        "threadNamePrefix must not be blank",
        () -> ExecutorFactories.forkJoin(1, true, "", true, null));
    rejects(
        "core must be >= 0, was -1",
        () ->
            ExecutorFactories.threadPool(
                -1, 1, Duration.ZERO, 0, Executors.defaultThreadFactory()));
    rejects(
        "max must be >= 1 and >= core (4), was 2",
        () ->
            ExecutorFactories.threadPool(4, 2, Duration.ZERO, 0, Executors.defaultThreadFactory()));
    rejects(
        "keepAlive must be >= 0, was PT-1S",
        () ->
            ExecutorFactories.threadPool(
                1, 1, Duration.ofSeconds(-1), 0, Executors.defaultThreadFactory()));
    rejectsNull(
        "keepAlive must not be null",
        () -> ExecutorFactories.threadPool(1, 1, null, 0, Executors.defaultThreadFactory()));
    rejectsNull(
        "threadFactory must not be null",
        () -> ExecutorFactories.threadPool(1, 1, Duration.ZERO, 0, null));
  }
}
