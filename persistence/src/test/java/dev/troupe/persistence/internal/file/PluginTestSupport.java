package dev.troupe.persistence.internal.file;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.troupe.actor.ActorSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;

/**
 * What the file plugins' tests share: a real actor system (terminated after each test) whose
 * serialization binds {@link Evt} to jackson-json, plugins made directly on a directory (closed
 * after each test), and bounded waits on stages.
 */
abstract class PluginTestSupport {
  /** An event or snapshot that users would define: a record, bound to jackson-json. */
  record Evt(String name, int n) {}

  /** Bound to no serializer: cannot be stored. */
  record Unbound(String name) {}

  static final String BIND_EVT =
      "troupe.serialization.bindings { \"" + Evt.class.getName() + "\" = jackson-json }\n";

  private static final long WAIT_SECONDS = 10;

  private final List<ActorSystem> systems = new ArrayList<>();
  private final List<AutoCloseable> plugins = new ArrayList<>();

  /** @return a system with {@link Evt} bound, and the given configuration over that */
  ActorSystem system(String hocon) {
    ActorSystem s = ActorSystem.create(getClass().getSimpleName() + systems.size(),
        ConfigFactory.parseString(hocon + "\n" + BIND_EVT));
    systems.add(s);
    return s;
  }

  /** @return a plugin section: {@code dir} and the given keys (the rest as in reference.conf) */
  static Config section(Path dir, String hocon) {
    return ConfigFactory.parseString(hocon).withValue("dir", ConfigValueFactory.fromAnyRef(dir.toString()));
  }

  /** Closes the plugin after the test (closing twice is harmless). */
  <P extends AutoCloseable> P closeLater(P plugin) {
    plugins.add(plugin);
    return plugin;
  }

  @AfterEach
  void closePluginsAndTerminateSystems() throws Exception {
    for (AutoCloseable p : plugins) {
      p.close();
    }
    for (ActorSystem s : systems) {
      s.terminate().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /** @return the stage's value, failing the test if it fails or takes over 10 s */
  static <T> T await(CompletionStage<T> stage, String what) {
    try {
      return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError(what + " did not complete within " + WAIT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(what + " was interrupted");
    }
  }

  /** @return the cause the stage failed with, failing the test if it succeeds or takes over 10 s */
  static <E extends Throwable> E failure(CompletionStage<?> stage, Class<E> expected, String what) {
    try {
      Object v = stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      return fail(what + " should have failed with " + expected.getSimpleName() + ", but completed with " + v);
    } catch (ExecutionException e) {
      return assertInstanceOf(expected, e.getCause(), what + " failed with another exception");
    } catch (TimeoutException e) {
      return fail(what + " did not complete within " + WAIT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail(what + " was interrupted");
    }
  }
}
