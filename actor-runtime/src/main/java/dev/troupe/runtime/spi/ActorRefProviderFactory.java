package dev.troupe.runtime.spi;

/**
 * Makes a system's {@link ActorRefProvider}. {@code troupe.actor.provider = local} uses the
 * built-in local one; {@code remote} is found with {@link java.util.ServiceLoader} among the
 * factories on the class path (or module path) whose {@link #name()} is {@code remote} — the one in
 * {@code dev.troupe:troupe-remoting}; any other value is the fully qualified name of a class
 * implementing this interface, with a public no-argument constructor.
 */
public interface ActorRefProviderFactory {

  /** @return the value of {@code troupe.actor.provider} this factory answers to, e.g. {@code remote} */
  String name();

  /**
   * Creates the provider; called once, while {@code system} is being constructed (its settings,
   * dispatchers, scheduler and event stream exist; its actors do not). A networked provider binds
   * its transport here, so that {@link ActorRefProvider#address()} knows its port, and builds its
   * {@link LocalActorRefProvider} with that address ({@link RuntimeSystem#newLocalProvider}).
   *
   * @param system the system being created
   * @return the provider
   * @throws dev.troupe.actor.ConfigurationException on bad settings, naming the key
   */
  ActorRefProvider create(RuntimeSystem system);
}
