package dev.troupe.actor.typed;

/**
 * Marks an object that a typed system holds once, for its whole life, under an {@link
 * ExtensionId}: a library's per-system service reached with {@code MyExtension.get(system)}.
 */
public interface Extension {}
