package dev.troupe.runtime.spi;

import java.util.List;

/**
 * A message told to a selection whose anchor is on another node: the whole selection travels to
 * that node's root and is resolved there ({@link LocalActorRefProvider#deliverSelection}).
 *
 * @param message the message for every matching actor
 * @param elements the path elements below the root, possibly with wildcards and {@code ..}
 */
public record ActorSelectionMessage(Object message, List<String> elements) {
  /** Copies the elements. */
  public ActorSelectionMessage {
    elements = List.copyOf(elements);
  }
}
