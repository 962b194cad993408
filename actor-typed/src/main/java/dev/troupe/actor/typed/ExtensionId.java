package dev.troupe.actor.typed;

/**
 * Names an {@link Extension} of typed systems and makes it: {@link #createExtension} runs at most
 * once per system, on the first {@link #apply} (or at start, for the ids listed in {@code
 * troupe.actor.typed.extensions}), and every later call returns the same instance. Compared by
 * identity: keep one instance, in a static final field. There is no instance {@code get}, so that
 * the id class may have a static one, as below.
 *
 * <pre>{@code
 * public final class Pool implements Extension {
 *   public static final class Id extends ExtensionId<Pool> {
 *     private static final Id INSTANCE = new Id();
 *     private Id() {}
 *     public Pool createExtension(ActorSystem<?> system) { return new Pool(system); }
 *     public static Pool get(ActorSystem<?> system) { return INSTANCE.apply(system); }
 *   }
 * }
 * }</pre>
 *
 * @param <T> the extension
 */
public abstract class ExtensionId<T extends Extension> {
  /** For subclasses. */
  protected ExtensionId() {}

  /**
   * Makes the system's extension; called once per system. It may spawn actors (with {@code
   * systemActorOf}), read the configuration, and get other extensions, but not its own (that fails
   * with {@link IllegalStateException}).
   *
   * @param system the system it is for
   * @return the extension; not null
   */
  public abstract T createExtension(ActorSystem<?> system);

  /**
   * @param system a typed system
   * @return its extension of this id, made on first use
   */
  public final T apply(ActorSystem<?> system) {
    return system.registerExtension(this);
  }

  @Override
  public final boolean equals(Object other) {
    return this == other;
  }

  @Override
  public final int hashCode() {
    return System.identityHashCode(this);
  }
}
