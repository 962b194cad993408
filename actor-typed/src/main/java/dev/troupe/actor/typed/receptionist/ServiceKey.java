package dev.troupe.actor.typed.receptionist;

import java.util.Objects;

/**
 * The name of a service in the receptionist: an id and the type of message the service's actors
 * accept. Two keys are equal when both are. Immutable.
 *
 * @param <T> the type of message the service accepts
 */
public final class ServiceKey<T> {
  private final Class<T> messageClass;
  private final String id;

  private ServiceKey(Class<T> messageClass, String id) {
    this.messageClass = messageClass;
    this.id = id;
  }

  /**
   * @param messageClass the type of message the service accepts
   * @param id the service's id
   * @param <T> that type
   * @return the key
   */
  public static <T> ServiceKey<T> create(Class<T> messageClass, String id) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException("a service key's id must not be empty");
    }
    return new ServiceKey<>(messageClass, id);
  }

  /** @return the service's id */
  public String id() {
    return id;
  }

  /** @return the type of message the service accepts */
  public Class<T> messageClass() {
    return messageClass;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ServiceKey<?> k && k.id.equals(id) && k.messageClass.equals(messageClass);
  }

  @Override
  public int hashCode() {
    return 31 * id.hashCode() + messageClass.getName().hashCode();
  }

  @Override
  public String toString() {
    return "ServiceKey(" + messageClass.getName() + ", " + id + ")";
  }
}
