package dev.troupe.persistence.query.javadsl;

/**
 * What every read journal is: a plugin made from a configuration section with a {@code class}
 * key, by a public constructor taking the {@code ActorSystem} and that section's {@code Config},
 * that offers some of the query interfaces of this package.
 */
public interface ReadJournal {}
