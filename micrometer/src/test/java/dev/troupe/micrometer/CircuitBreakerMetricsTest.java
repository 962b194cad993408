package dev.troupe.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.pattern.CircuitBreaker;
import dev.troupe.pattern.CircuitBreakerOpenException;
import dev.troupe.testkit.ActorSystemExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A circuit breaker's meters: its state as a gauge, its calls by outcome, refusals and state
 * changes, each moved by what the breaker did and only by that; binding a registry twice counts
 * once.
 */
class CircuitBreakerMetricsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod("");
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double state() {
    return registry.get("troupe.circuit.breaker.state").tag("name", "prices").gauge().value();
  }

  private long calls(String outcome) {
    return registry.get("troupe.circuit.breaker.calls").tag("name", "prices").tag("outcome", outcome).timer().count();
  }

  private double transitions(String to) {
    return registry.get("troupe.circuit.breaker.transitions").tag("name", "prices").tag("to", to).counter().count();
  }

  private double refused() {
    return registry.get("troupe.circuit.breaker.refused").tag("name", "prices").counter().count();
  }

  @Test
  void eachOutcomeAndStateChangeMovesItsOwnMeter() throws Exception {
    CircuitBreaker breaker = CircuitBreaker.create(troupe.system().scheduler(), 2, Duration.ofMillis(50), Duration.ofMillis(100));
    CircuitBreakerMetrics metrics = new CircuitBreakerMetrics(breaker, "prices");
    metrics.bindTo(registry);
    metrics.bindTo(registry); // again: nothing more

    assertEquals("ok", breaker.callWithSyncCircuitBreaker(() -> "ok"));
    assertEquals(1, calls("success"));
    assertEquals(0, state());

    assertThrows(IllegalStateException.class, () -> breaker.callWithSyncCircuitBreaker(() -> { throw new IllegalStateException("down"); }));
    ExecutionException timedOut = assertThrows(ExecutionException.class,
        () -> breaker.callWithCircuitBreakerCS(CompletableFuture<String>::new).toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertTrue(timedOut.getCause() instanceof TimeoutException, String.valueOf(timedOut.getCause()));
    assertEquals(1, calls("failure"));
    assertEquals(1, calls("timeout"));
    assertTrue(registry.get("troupe.circuit.breaker.calls").tag("outcome", "timeout").timer().totalTime(TimeUnit.MILLISECONDS) >= 50,
        "the timed-out call's duration");
    assertEquals(2, state(), "two failures in a row opened it");
    assertEquals(1, transitions("open"));

    assertThrows(CircuitBreakerOpenException.class, () -> breaker.callWithSyncCircuitBreaker(() -> "refused"));
    assertEquals(1, refused());
    assertEquals(1, calls("success"), "a refused call is no call");

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!breaker.isHalfOpen()) { // the breaker's own state, polled: nothing else announces it here
      assertTrue(System.nanoTime() - deadline < 0, "half-open within 10 s");
      LockSupport.parkNanos(1_000_000);
    }
    assertEquals(1, state());
    assertEquals(1, transitions("half-open"));
    assertEquals("back", breaker.callWithSyncCircuitBreaker(() -> "back"));
    assertEquals(0, state());
    assertEquals(1, transitions("closed"));
    assertEquals(2, calls("success"));
  }

  @Test
  void aSecondBreakerHasMetersOfItsOwnName() throws Exception {
    CircuitBreaker a = CircuitBreaker.create(troupe.system().scheduler(), 1, Duration.ofSeconds(5), Duration.ofSeconds(30));
    CircuitBreaker b = CircuitBreaker.create(troupe.system().scheduler(), 1, Duration.ofSeconds(5), Duration.ofSeconds(30));
    new CircuitBreakerMetrics(a, "prices").bindTo(registry);
    new CircuitBreakerMetrics(b, "stock").bindTo(registry);
    b.fail();
    assertEquals(0, state());
    assertEquals(2, registry.get("troupe.circuit.breaker.state").tag("name", "stock").gauge().value());
    assertThrows(NullPointerException.class, () -> new CircuitBreakerMetrics(a, null));
  }
}
