package dev.troupe.actor;

/**
 * An {@link ExtensionId} as a class (Pekko's Java base class for one), compared by identity
 * whatever a subclass does.
 *
 * <pre>{@code
 * public final class CountExtension extends AbstractExtensionId<Counter> implements ExtensionIdProvider {
 *   public static final CountExtension INSTANCE = new CountExtension();
 *   private CountExtension() {}
 *   public CountExtension lookup() { return INSTANCE; }
 *   public Counter createExtension(ActorSystem system) { return new Counter(); }
 * }
 * }</pre>
 *
 * @param <T> the extension
 */
public abstract class AbstractExtensionId<T extends Extension> implements ExtensionId<T> {
  /** For subclasses. */
  protected AbstractExtensionId() {}

  @Override
  public final boolean equals(Object other) {
    return this == other;
  }

  @Override
  public final int hashCode() {
    return System.identityHashCode(this);
  }
}
