package dev.troupe.cluster.sharding.typed;

import java.util.Objects;

/**
 * The name of a sharded entity type and the protocol its entities accept: the same on every member
 * that hosts or reaches the type.
 *
 * <pre>{@code
 * static final EntityTypeKey<Counter.Command> COUNTER = EntityTypeKey.create(Counter.Command.class, "Counter");
 * }</pre>
 *
 * Two keys are equal when their names and message classes are.
 *
 * @param <M> the messages its entities accept
 */
public final class EntityTypeKey<M> {
  private final Class<M> messageClass;
  private final String name;

  private EntityTypeKey(Class<M> messageClass, String name) {
    this.messageClass = messageClass;
    this.name = name;
  }

  /**
   * @param messageClass the class (usually an interface) of the entities' messages
   * @param name the type's name, unique among the sharded types of a cluster; not blank
   * @param <M> the messages its entities accept
   * @return the key
   * @throws IllegalArgumentException for a blank name
   */
  public static <M> EntityTypeKey<M> create(Class<M> messageClass, String name) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("an entity type's name must not be blank");
    }
    return new EntityTypeKey<>(messageClass, name);
  }

  /** @return the type's name: the name its regions have on every member */
  public String name() {
    return name;
  }

  /** @return the class of the entities' messages */
  public Class<M> messageClass() {
    return messageClass;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EntityTypeKey<?> k && k.name.equals(name) && k.messageClass == messageClass;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + messageClass.hashCode();
  }

  @Override
  public String toString() {
    return "EntityTypeKey(" + name + ", " + messageClass.getName() + ")";
  }
}
