package dev.troupe.actor;

/**
 * How {@code troupe.extensions} finds an id by a class name: a class listed there that implements
 * this is made with its no-argument constructor (which may be private), and its {@link #lookup()}
 * names the id. A listed class that does not implement it must hold its id in a static final field
 * of its own type (exactly one), or be an id made by its no-argument constructor.
 */
public interface ExtensionIdProvider {
  /** @return the id of the extension to load: the one instance the application uses */
  ExtensionId<?> lookup();
}
