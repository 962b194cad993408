package dev.troupe.testkit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives tests a fresh {@link ActorSystem} and shuts it down
 * <em>verified</em>: the test fails if the system does not terminate in time, or if any thread
 * with the system's name is still alive a few seconds after termination.
 *
 * <pre>{@code
 * @ExtendWith(ActorSystemExtension.class)      // a new system for each test method
 * class GreeterTest {
 *   @Test void greets(ActorSystem system, TestKit probe) { ... }
 * }
 *
 * class SharedSystemTest {                      // one system for the whole class
 *   @RegisterExtension
 *   static final ActorSystemExtension troupe = ActorSystemExtension.perClass("my.key = 1");
 *   @Test void works() { ActorSystem system = troupe.system(); ... }
 *   @Test void tuned() { ActorSystem other = troupe.createSystem("my.key = 2"); ... }
 * }
 * }</pre>
 *
 * The systems read the test class path's {@code application.conf} (as {@code
 * ActorSystem.create(name)} does), under the HOCON given to {@link #perMethod}, {@link #perClass}
 * or {@link #createSystem}; so a dispatcher or serialization binding defined there is known in
 * tests too.
 *
 * <p>Test methods (and, per class, {@code @BeforeAll}/{@code @AfterAll} methods) may declare
 * parameters of type {@link ActorSystem} and {@link TestKit} (a new kit per parameter). A test
 * that needs a system configured its own way gets one from {@link #createSystem(String)}, shut
 * down as verified as the extension's own.
 */
public final class ActorSystemExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(ActorSystemExtension.class);
  private static final Duration THREADS_GONE_WITHIN = Duration.ofSeconds(10);

  private final boolean perClass;
  private final Config config;
  private volatile ActorSystem current;
  private volatile String label = "system";
  private volatile boolean inTest;
  private final List<ActorSystem> classSystems = new ArrayList<>();
  private final List<ActorSystem> testSystems = new ArrayList<>();

  /** A per-method extension with the default configuration (for {@code @ExtendWith}). */
  public ActorSystemExtension() {
    this(false, ConfigFactory.empty());
  }

  private ActorSystemExtension(boolean perClass, Config config) {
    this.perClass = perClass;
    // as ActorSystem.create(name) does: the test's application.conf under the given overrides
    this.config = config.withFallback(ConfigFactory.defaultApplication());
  }

  /**
   * A new system for each test method.
   *
   * @param hocon configuration overrides (HOCON), may be empty
   * @return the extension
   */
  public static ActorSystemExtension perMethod(String hocon) {
    return new ActorSystemExtension(false, ConfigFactory.parseString(hocon));
  }

  /**
   * One system for all tests of the class; register it in a static field.
   *
   * @param hocon configuration overrides (HOCON), may be empty
   * @return the extension
   */
  public static ActorSystemExtension perClass(String hocon) {
    return new ActorSystemExtension(true, ConfigFactory.parseString(hocon));
  }

  /** @return the current test's system */
  public ActorSystem system() {
    ActorSystem s = current;
    if (s == null) {
      throw new IllegalStateException("no actor system: call system() from a test or lifecycle method");
    }
    return s;
  }

  /**
   * Creates another system, configured with {@code hocon} over this extension's configuration.
   * It is shut down, verified like the extension's own system, after the current test; one created
   * in a {@code @BeforeAll} method, after the class.
   *
   * @param hocon configuration overrides (HOCON), may be empty
   * @return the new system
   */
  public ActorSystem createSystem(String hocon) {
    ActorSystem s = ActorSystem.create(systemName(label), ConfigFactory.parseString(hocon).withFallback(config));
    List<ActorSystem> owner = inTest ? testSystems : classSystems;
    synchronized (owner) {
      owner.add(s);
    }
    return s;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    label = context.getRequiredTestClass().getSimpleName();
    if (perClass) {
      start(context, label);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      shutDownAll(classSystems);
    } finally {
      if (perClass) {
        stop(context);
      }
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    label = context.getRequiredTestClass().getSimpleName() + "-" + context.getRequiredTestMethod().getName();
    inTest = true;
    if (!perClass) {
      start(context, label);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    inTest = false;
    try {
      shutDownAll(testSystems);
    } finally {
      if (!perClass) {
        stop(context);
      }
    }
  }

  /** Shuts down (verified) and forgets every system in {@code systems}; the first failure is thrown. */
  private static void shutDownAll(List<ActorSystem> systems) {
    List<ActorSystem> toStop;
    synchronized (systems) {
      toStop = new ArrayList<>(systems);
      systems.clear();
    }
    AssertionError failure = null;
    for (ActorSystem s : toStop) {
      try {
        shutDownVerified(s);
      } catch (AssertionError e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void start(ExtensionContext context, String label) {
    ActorSystem s = ActorSystem.create(systemName(label), config);
    current = s;
    context.getStore(NS).put(ActorSystem.class, s);
  }

  private void stop(ExtensionContext context) {
    ActorSystem s = context.getStore(NS).remove(ActorSystem.class, ActorSystem.class);
    current = null;
    if (s != null) {
      shutDownVerified(s);
    }
  }

  private static void shutDownVerified(ActorSystem s) {
    TestKit.shutdownActorSystem(s);
    verifyThreadsGone(s.name());
  }

  /** Turns a label into a valid, unique system name. */
  static String systemName(String label) {
    StringBuilder sb = new StringBuilder();
    for (char c : label.toCharArray()) {
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      sb.append(ok ? c : '_');
      if (sb.length() >= 60) {
        break;
      }
    }
    if (sb.length() == 0 || !Character.isLetterOrDigit(sb.charAt(0))) {
      sb.insert(0, 't');
    }
    return sb + "-" + COUNTER.incrementAndGet();
  }

  private static void verifyThreadsGone(String systemName) {
    long end = System.nanoTime() + THREADS_GONE_WITHIN.toNanos();
    Set<String> alive;
    do {
      alive = TestKit.liveThreads(systemName + "-");
      if (alive.isEmpty()) {
        return;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L); // polling interval
    } while (System.nanoTime() < end);
    throw new AssertionError(
        "threads of actor system " + systemName + " still alive " + THREADS_GONE_WITHIN + " after termination: " + alive);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    Class<?> type = parameter.getParameter().getType();
    return type == ActorSystem.class || type == TestKit.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    ActorSystem s = findSystem(extension);
    if (s == null) {
      throw new ParameterResolutionException(
          "no actor system for " + parameter.getParameter() + ": a per-method extension only serves test methods");
    }
    return parameter.getParameter().getType() == ActorSystem.class ? s : new TestKit(s);
  }

  private static ActorSystem findSystem(ExtensionContext context) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      ActorSystem s = c.getStore(NS).get(ActorSystem.class, ActorSystem.class);
      if (s != null) {
        return s;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "ActorSystemExtension[" + (perClass ? "per class" : "per method") + ", " + Objects.toString(current) + "]";
  }
}
