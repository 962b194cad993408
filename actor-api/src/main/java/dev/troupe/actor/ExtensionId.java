package dev.troupe.actor;

/**
 * Names an {@link Extension} and makes it: {@link #createExtension} runs at most once per system,
 * on the first {@link #get} (or at start, for the ids listed in {@code troupe.extensions}), and
 * every later call returns the same instance.
 *
 * <p>An id is compared by identity: keep one instance, in a static final field.
 *
 * <pre>{@code
 * public final class Counters implements Extension {
 *   public static final ExtensionId<Counters> ID = system -> new Counters();
 *   public static Counters get(ActorSystem system) { return ID.get(system); }
 *   public final AtomicLong hits = new AtomicLong();
 * }
 * }</pre>
 *
 * @param <T> the extension
 */
@FunctionalInterface
public interface ExtensionId<T extends Extension> {
  /**
   * Makes the system's extension; called once per system. It may start actors, read the
   * configuration, and get other extensions, but not its own (that fails with {@link
   * IllegalStateException}).
   *
   * @param system the system it is for
   * @return the extension; not null
   */
  T createExtension(ActorSystem system);

  /**
   * @param system a system
   * @return its extension of this id, made on first use
   */
  default T get(ActorSystem system) {
    return system.registerExtension(this);
  }

  /**
   * The same as {@link #get}, by Pekko's other name.
   *
   * @param system a system
   * @return its extension of this id, made on first use
   */
  default T apply(ActorSystem system) {
    return get(system);
  }
}
