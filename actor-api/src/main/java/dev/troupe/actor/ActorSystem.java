package dev.troupe.actor;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.spi.ActorSystemProvider;
import dev.troupe.actor.spi.ExtensionSlots;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * A hierarchy of actors sharing configuration, dispatchers, a scheduler and an event stream.
 *
 * <p>Create one per application with {@link #create(String)}; user actors live under {@code
 * /user}, the system's own under {@code /system}. {@link #terminate()} stops them all, children
 * before parents, and shuts the system's threads down.
 *
 * <p>The implementation is found with {@link ServiceLoader} through {@link ActorSystemProvider}:
 * put {@code troupe-actor-runtime} (or a module depending on it) on the class path.
 */
public abstract class ActorSystem {
  private final ExtensionSlots extensions = new ExtensionSlots();

  /** For the runtime's implementation. */
  protected ActorSystem() {}

  /**
   * The system's extension of {@code id}, made by {@link ExtensionId#createExtension} on the first
   * call (the calls of other threads meanwhile wait for it and get the same instance). Ids listed in
   * {@code troupe.extensions} (and a library's {@code troupe.library-extensions}) are registered
   * when the system starts.
   *
   * @param id the extension's id
   * @param <T> the extension
   * @return the extension
   * @throws IllegalStateException if the extension's own creation asks for it
   */
  public final <T extends Extension> T registerExtension(ExtensionId<T> id) {
    T made = extensions.made(Objects.requireNonNull(id, "id"));
    return made != null ? made : extensions.register(id, () -> id.createExtension(this));
  }

  /**
   * @param id an extension's id
   * @param <T> the extension
   * @return the extension, registered earlier
   * @throws IllegalArgumentException if it is not registered
   */
  public final <T extends Extension> T extension(ExtensionId<T> id) {
    return extensions.get(id);
  }

  /**
   * @param id an extension's id
   * @return whether the extension is registered
   */
  public final boolean hasExtension(ExtensionId<? extends Extension> id) {
    return extensions.has(id);
  }

  /**
   * Creates a system named {@code "default"} from the default configuration.
   *
   * @return the started system
   */
  public static ActorSystem create() {
    return create("default");
  }

  /**
   * Creates a system from {@code application.conf}, {@code reference.conf} and {@code -D}
   * overrides.
   *
   * @param name the system name: ASCII letters, digits, {@code -} and {@code _}
   * @return the started system
   */
  public static ActorSystem create(String name) {
    Address.validSystem(name, name);
    ConfigFactory.invalidateCaches();
    return create(name, ConfigFactory.load());
  }

  /**
   * Creates a system from the given configuration; keys it does not set come from {@code
   * reference.conf}, and {@code -D} system properties override it.
   *
   * @param name the system name
   * @param config the configuration
   * @return the started system
   */
  public static ActorSystem create(String name, Config config) {
    Address.validSystem(name, name);
    Objects.requireNonNull(config, "config");
    Config full =
        ConfigFactory.defaultOverrides()
            .withFallback(config)
            .withFallback(ConfigFactory.defaultReference())
            .resolve();
    ActorSystem system = provider().create(name, full);
    try {
      ExtensionSlots.startConfigured(system, full);
    } catch (RuntimeException | Error e) {
      system.terminate();
      throw e;
    }
    return system;
  }

  private static ActorSystemProvider provider() {
    Iterator<ActorSystemProvider> it =
        ServiceLoader.load(ActorSystemProvider.class, ActorSystem.class.getClassLoader())
            .iterator();
    if (!it.hasNext()) {
      throw new ConfigurationException(
          "no Troupe runtime found on the class path: add the troupe-actor-runtime dependency");
    }
    return it.next();
  }

  static boolean isValidSystemName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alnum && (i == 0 || (c != '-' && c != '_'))) {
        return false;
      }
    }
    return true;
  }

  /** @return the system's name */
  public abstract String name();

  /** @return the parsed settings, including the full configuration */
  public abstract Settings settings();

  /** @return the system's logger */
  public abstract LoggingAdapter log();

  /**
   * Creates a top-level actor under {@code /user} with a generated name.
   *
   * @param props how to create it
   * @return its ref
   * @throws IllegalStateException naming the system, once it is terminating or has terminated
   */
  public abstract ActorRef actorOf(Props props);

  /**
   * Creates a named top-level actor under {@code /user}.
   *
   * @param props how to create it
   * @param name a name unique under {@code /user}, not starting with {@code $}
   * @return its ref
   * @throws InvalidActorNameException if the name is invalid or taken
   * @throws IllegalStateException naming the system, once it is terminating or has terminated
   */
  public abstract ActorRef actorOf(Props props, String name);

  /**
   * Selects actors by absolute path or full URI.
   *
   * @param path e.g. {@code /user/worker} or {@code troupe://demo/user/work*}
   * @return the selection
   * @throws IllegalArgumentException naming the text and what is wrong, for an element that is
   *     neither a name, a pattern nor {@code ..}, an unknown protocol or a malformed address
   */
  public abstract ActorSelection actorSelection(String path);

  /**
   * Selects the actor at a path.
   *
   * @param path the path
   * @return the selection
   */
  public abstract ActorSelection actorSelection(ActorPath path);

  /**
   * Stops an actor asynchronously.
   *
   * @param actor the actor
   */
  public abstract void stop(ActorRef actor);

  /**
   * Stops all actors and the system's threads. Idempotent.
   *
   * <p>First runs the system's {@link CoordinatedShutdown} (reason {@link
   * CoordinatedShutdown.ActorSystemTerminateReason}, unless a run had already started): the
   * system keeps serving while the phases before {@value
   * CoordinatedShutdown#PHASE_ACTOR_SYSTEM_TERMINATE} run, and its actors are stopped in that last
   * phase (or once the run is over, when {@code
   * troupe.coordinated-shutdown.terminate-actor-system = off}).
   *
   * <p>Once {@link #getWhenTerminated()} has completed, the system serves nothing more, and says so
   * at once rather than failing deep inside or hanging: {@code actorOf} and the {@link
   * #scheduler()}'s methods throw an {@link IllegalStateException} naming the system; {@code
   * Patterns.ask}, {@code Patterns.gracefulStop} and {@link ActorSelection#resolveOne} return a
   * stage failed with that exception.
   *
   * @return the stage of {@link #getWhenTerminated()}
   */
  public abstract CompletionStage<Terminated> terminate();

  /** @return a stage completed once every actor stopped and the system shut down */
  public abstract CompletionStage<Terminated> getWhenTerminated();

  /**
   * Runs {@code hook} when the system terminates (in registration order reversed, like a stack).
   *
   * @param hook the task
   */
  public abstract void registerOnTermination(Runnable hook);

  /**
   * The system's scheduler. Once the system has terminated its methods throw an {@link
   * IllegalStateException} naming the system.
   *
   * @return the system's scheduler
   */
  public abstract Scheduler scheduler();

  /** @return the system's event stream */
  public abstract EventStream eventStream();

  /** @return {@link #scheduler()}, by the name Pekko's Java API gives it */
  public final Scheduler getScheduler() {
    return scheduler();
  }

  /** @return {@link #eventStream()}, by the name Pekko's Java API gives it */
  public final EventStream getEventStream() {
    return eventStream();
  }

  /** @return {@link #dispatcher()}, by the name Pekko's Java API gives it */
  public final Executor getDispatcher() {
    return dispatcher();
  }

  /** @return the ref that collects undeliverable messages */
  public abstract ActorRef deadLetters();

  /** @return the executor of the default dispatcher */
  public abstract Executor dispatcher();

  /**
   * The executor of a configured dispatcher.
   *
   * @param id the dispatcher's config path, e.g. {@code my-dispatcher}
   * @return its executor
   * @throws ConfigurationException if no such dispatcher is configured
   */
  public abstract Executor dispatcher(String id);

  /**
   * The path of a top-level user actor.
   *
   * @param name the actor's name
   * @return {@code troupe://<system>/user/<name>}
   */
  public abstract ActorPath child(String name);

  /** @return the system's address */
  public abstract Address address();

  /** @return how long the system has been running */
  public abstract Duration uptime();

  /** The parsed, validated settings of a system. */
  public static final class Settings {
    private final String name;
    private final Config config;

    /**
     * For the runtime.
     *
     * @param name the system name
     * @param config the fully resolved configuration
     */
    public Settings(String name, Config config) {
      this.name = name;
      this.config = config;
    }

    /** @return the system's name */
    public String name() {
      return name;
    }

    /** @return the fully resolved configuration the system was created with */
    public Config config() {
      return config;
    }

    @Override
    public String toString() {
      return "Settings[" + name + "]";
    }
  }
}
