package dev.troupe.persistence.typed;

import java.util.Objects;

/**
 * The id of an event-sourced actor's history in the journal: unique in the journal and the same in
 * every incarnation of the actor.
 *
 * @param id the id as the journal stores it
 */
public record PersistenceId(String id) {
  /** What {@link #of(String, String)} puts between the type hint and the entity id. */
  public static final String SEPARATOR = "|";

  /** Checks the id. */
  public PersistenceId {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("a persistence id must not be empty");
    }
  }

  /**
   * The id of one entity of a type, e.g. {@code of("ShoppingCart", cartId)} is {@code
   * "ShoppingCart|" + cartId}: entities of two types never share a history.
   *
   * @param entityTypeHint the entity type, without {@value #SEPARATOR}
   * @param entityId the entity's id
   * @return the persistence id
   */
  public static PersistenceId of(String entityTypeHint, String entityId) {
    if (entityTypeHint.contains(SEPARATOR)) {
      throw new IllegalArgumentException("the entity type hint [" + entityTypeHint + "] must not contain " + SEPARATOR);
    }
    return new PersistenceId(entityTypeHint + SEPARATOR + Objects.requireNonNull(entityId, "entityId"));
  }

  /**
   * @param id an id that is unique by itself
   * @return the persistence id
   */
  public static PersistenceId ofUniqueId(String id) {
    return new PersistenceId(id);
  }

  @Override
  public String toString() {
    return id;
  }
}
