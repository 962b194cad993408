package dev.troupe.micrometer;

import dev.troupe.pattern.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Meters of one {@link CircuitBreaker}, tagged {@code name}: where it stands, how its calls end,
 * how often it changes state.
 *
 * <pre>{@code
 * new CircuitBreakerMetrics(breaker, "prices").bindTo(meterRegistry);
 * }</pre>
 *
 * <ul>
 *   <li>{@code troupe.circuit.breaker.state}: 0 closed, 1 half-open, 2 open (a gauge);
 *   <li>{@code troupe.circuit.breaker.calls} (a timer), tagged {@code outcome}: {@code success},
 *       {@code failure}, {@code timeout}, with each call's duration;
 *   <li>{@code troupe.circuit.breaker.refused}: calls refused without calling the service;
 *   <li>{@code troupe.circuit.breaker.transitions}, tagged {@code to}: {@code open}, {@code
 *       half-open}, {@code closed}.
 * </ul>
 *
 * <p>It counts through the breaker's listeners, which it adds once per registry (binding the same
 * registry again changes nothing). A breaker made by {@code CircuitBreaker.create} runs listeners on
 * the thread that changed its state: recording a Micrometer counter or timer there is cheap.
 */
public final class CircuitBreakerMetrics implements MeterBinder {
  private final CircuitBreaker breaker;
  private final Tags tags;
  private final Set<MeterRegistry> bound = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  /**
   * @param breaker the breaker
   * @param name the {@code name} tag of its meters (the service it protects)
   */
  public CircuitBreakerMetrics(CircuitBreaker breaker, String name) {
    this.breaker = Objects.requireNonNull(breaker, "breaker");
    this.tags = Tags.of("name", Objects.requireNonNull(name, "name"));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    if (!bound.add(registry)) {
      return;
    }
    Gauge.builder("troupe.circuit.breaker.state", breaker, CircuitBreakerMetrics::state)
        .description("where the breaker stands: 0 closed, 1 half-open, 2 open")
        .tags(tags)
        .register(registry);
    Timer success = calls(registry, "success");
    Timer failure = calls(registry, "failure");
    Timer timeout = calls(registry, "timeout");
    Counter refused =
        Counter.builder("troupe.circuit.breaker.refused")
            .description("calls refused while the breaker was open, without calling the service")
            .tags(tags)
            .register(registry);
    breaker
        .addOnCallSuccessListener(n -> success.record(n, TimeUnit.NANOSECONDS))
        .addOnCallFailureListener(n -> failure.record(n, TimeUnit.NANOSECONDS))
        .addOnCallTimeoutListener(n -> timeout.record(n, TimeUnit.NANOSECONDS))
        .addOnCallBreakerOpenListener(refused::increment)
        .addOnOpenListener(transitions(registry, "open")::increment)
        .addOnHalfOpenListener(transitions(registry, "half-open")::increment)
        .addOnCloseListener(transitions(registry, "closed")::increment);
  }

  private Timer calls(MeterRegistry registry, String outcome) {
    return Timer.builder("troupe.circuit.breaker.calls")
        .description("calls through the breaker, by how they ended")
        .tags(tags.and("outcome", outcome))
        .register(registry);
  }

  private Counter transitions(MeterRegistry registry, String to) {
    return Counter.builder("troupe.circuit.breaker.transitions")
        .description("times the breaker changed state, by the state it went to")
        .tags(tags.and("to", to))
        .register(registry);
  }

  private static double state(CircuitBreaker b) {
    return b.isOpen() ? 2 : b.isHalfOpen() ? 1 : 0;
  }
}
