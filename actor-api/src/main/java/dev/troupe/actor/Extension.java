package dev.troupe.actor;

/**
 * Marks an object that a system holds once, for its whole life, under an {@link ExtensionId}: a
 * library's per-system service (a connection pool, a registry, a client) reached from anywhere
 * the system is, with {@code MyExtension.get(system)}.
 */
public interface Extension {}
