package dev.troupe.testkit.typed;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives a test class an {@link ActorTestKit} and shuts it down verified:
 *
 * <pre>{@code
 * @RegisterExtension static final ActorTestKitExtension testKit = new ActorTestKitExtension();
 * @Test void greets() { var probe = testKit.createTestProbe(String.class); ... }
 * }</pre>
 *
 * <p>As a static field it serves the whole class (shut down after all tests); as an instance field,
 * each test gets a new kit. Test methods may also declare an {@link ActorTestKit} parameter.
 */
public final class ActorTestKitExtension
    implements BeforeAllCallback, AfterAllCallback, AfterEachCallback, ParameterResolver {
  private final String hocon;
  private volatile ActorTestKit kit;
  private volatile boolean perClass;

  /** An extension with the default configuration. */
  public ActorTestKitExtension() {
    this("");
  }

  /** @param hocon configuration for the kit's system (reference.conf is added under it) */
  public ActorTestKitExtension(String hocon) {
    this.hocon = hocon;
  }

  /** @return the kit (started on first use) */
  public ActorTestKit testKit() {
    ActorTestKit k = kit;
    if (k == null) {
      synchronized (this) {
        k = kit;
        if (k == null) {
          k = ActorTestKit.create(ConfigFactory.parseString(hocon));
          kit = k;
        }
      }
    }
    return k;
  }

  /**
   * @param <M> what it accepts
   * @return a new probe in the kit's system
   */
  public <M> TestProbe<M> createTestProbe() {
    return testKit().createTestProbe();
  }

  /**
   * @param messageClass what it accepts
   * @param <M> that type
   * @return a new probe in the kit's system
   */
  public <M> TestProbe<M> createTestProbe(Class<M> messageClass) {
    return testKit().createTestProbe(messageClass);
  }

  /**
   * @param behavior the behaviour
   * @param name its name
   * @param <T> what it accepts
   * @return its ref
   */
  public <T> dev.troupe.actor.typed.ActorRef<T> spawn(dev.troupe.actor.typed.Behavior<T> behavior, String name) {
    return testKit().spawn(behavior, name);
  }

  /**
   * @param behavior the behaviour
   * @param <T> what it accepts
   * @return its ref
   */
  public <T> dev.troupe.actor.typed.ActorRef<T> spawn(dev.troupe.actor.typed.Behavior<T> behavior) {
    return testKit().spawn(behavior);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      shutdown();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    shutdown();
  }

  private synchronized void shutdown() {
    ActorTestKit k = kit;
    kit = null;
    if (k != null) {
      k.shutdownTestKit();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    return parameter.getParameter().getType() == ActorTestKit.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    return testKit();
  }
}
