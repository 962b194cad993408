package dev.troupe.actor.typed.receptionist;

import dev.troupe.actor.typed.ActorRef;
import java.util.Objects;
import java.util.Set;

/**
 * The receptionist's protocol: actors register under a {@link ServiceKey}; others find them once
 * ({@link #find}) or subscribe to every change ({@link #subscribe}). An actor that stops leaves its
 * listings by itself; so does a subscriber. Send the commands to {@code system.receptionist()}.
 *
 * <pre>{@code
 * system.receptionist().tell(Receptionist.register(KEY, ctx.getSelf()));
 * system.receptionist().tell(Receptionist.find(KEY, listingAdapter));
 * }</pre>
 *
 * <p>The commands and replies are plain values so that another implementation (a cluster-wide one,
 * through {@link ReceptionistFactory}) handles the same protocol.
 */
public final class Receptionist {
  private Receptionist() {}

  /** A message to the receptionist. Implementations may add internal commands of their own. */
  public interface Command {}

  /**
   * Registers a service instance.
   *
   * @param key the service
   * @param service the instance
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command register(ServiceKey<T> key, ActorRef<T> service) {
    return new Register<>(key, service, null);
  }

  /**
   * Registers a service instance and confirms it.
   *
   * @param key the service
   * @param service the instance
   * @param replyTo gets {@link Registered} once the instance is listed
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command register(ServiceKey<T> key, ActorRef<T> service, ActorRef<Registered> replyTo) {
    return new Register<>(key, service, Objects.requireNonNull(replyTo, "replyTo"));
  }

  /**
   * Removes a service instance from the listing of a key.
   *
   * @param key the service
   * @param service the instance
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command deregister(ServiceKey<T> key, ActorRef<T> service) {
    return new Deregister<>(key, service, null);
  }

  /**
   * Removes a service instance and confirms it.
   *
   * @param key the service
   * @param service the instance
   * @param replyTo gets {@link Deregistered}
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command deregister(ServiceKey<T> key, ActorRef<T> service, ActorRef<Deregistered> replyTo) {
    return new Deregister<>(key, service, Objects.requireNonNull(replyTo, "replyTo"));
  }

  /**
   * Asks once for the instances of a service.
   *
   * @param key the service
   * @param replyTo gets one {@link Listing}
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command find(ServiceKey<T> key, ActorRef<Listing> replyTo) {
    return new Find<>(key, replyTo);
  }

  /**
   * Subscribes to the instances of a service: a {@link Listing} now, and another after every change.
   *
   * @param key the service
   * @param subscriber gets the listings
   * @param <T> what it accepts
   * @return the command
   */
  public static <T> Command subscribe(ServiceKey<T> key, ActorRef<Listing> subscriber) {
    return new Subscribe<>(key, subscriber);
  }

  /**
   * @param key the service
   * @param service the instance
   * @param replyTo who confirms, or null
   * @param <T> what it accepts
   */
  public record Register<T>(ServiceKey<T> key, ActorRef<T> service, ActorRef<Registered> replyTo)
      implements Command {
    /** Checks the fields. */
    public Register {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(service, "service");
    }
  }

  /**
   * @param key the service
   * @param service the instance
   * @param replyTo who confirms, or null
   * @param <T> what it accepts
   */
  public record Deregister<T>(ServiceKey<T> key, ActorRef<T> service, ActorRef<Deregistered> replyTo)
      implements Command {
    /** Checks the fields. */
    public Deregister {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(service, "service");
    }
  }

  /**
   * @param key the service
   * @param replyTo who gets the listing
   * @param <T> what it accepts
   */
  public record Find<T>(ServiceKey<T> key, ActorRef<Listing> replyTo) implements Command {
    /** Checks the fields. */
    public Find {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * @param key the service
   * @param subscriber who gets the listings
   * @param <T> what it accepts
   */
  public record Subscribe<T>(ServiceKey<T> key, ActorRef<Listing> subscriber) implements Command {
    /** Checks the fields. */
    public Subscribe {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(subscriber, "subscriber");
    }
  }

  /**
   * The confirmation of a registration.
   *
   * @param key the service
   * @param service the instance
   */
  public record Registered(ServiceKey<?> key, ActorRef<?> service) {
    /** Checks the fields. */
    public Registered {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(service, "service");
    }

    /** @return the service */
    public ServiceKey<?> getKey() {
      return key;
    }

    /**
     * @param key the service (must be this confirmation's)
     * @param <T> what it accepts
     * @return the instance, typed by the key
     */
    public <T> ActorRef<T> getServiceInstance(ServiceKey<T> key) {
      return typed(this.key, key, service);
    }
  }

  /**
   * The confirmation of a deregistration.
   *
   * @param key the service
   * @param service the instance
   */
  public record Deregistered(ServiceKey<?> key, ActorRef<?> service) {
    /** Checks the fields. */
    public Deregistered {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(service, "service");
    }

    /** @return the service */
    public ServiceKey<?> getKey() {
      return key;
    }

    /**
     * @param key the service (must be this confirmation's)
     * @param <T> what it accepts
     * @return the instance, typed by the key
     */
    public <T> ActorRef<T> getServiceInstance(ServiceKey<T> key) {
      return typed(this.key, key, service);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> ActorRef<T> typed(ServiceKey<?> mine, ServiceKey<T> asked, ActorRef<?> service) {
    checkKey(mine, asked);
    return (ActorRef<T>) service;
  }

  /** The instances of a service, at one moment: the answer to {@link #find} and {@link #subscribe}. */
  public static final class Listing {
    private final ServiceKey<?> key;
    private final Set<ActorRef<?>> instances;

    /**
     * @param key the service
     * @param instances its instances (copied)
     */
    public Listing(ServiceKey<?> key, Set<? extends ActorRef<?>> instances) {
      this.key = Objects.requireNonNull(key, "key");
      this.instances = Set.copyOf(instances);
    }

    /** @return the service */
    public ServiceKey<?> getKey() {
      return key;
    }

    /**
     * @param key a service
     * @return whether this listing is that service's
     */
    public boolean isForKey(ServiceKey<?> key) {
      return this.key.equals(key);
    }

    /**
     * @param key the service (must be this listing's)
     * @param <T> what it accepts
     * @return its instances, typed by the key (immutable)
     * @throws IllegalArgumentException for another key
     */
    @SuppressWarnings("unchecked")
    public <T> Set<ActorRef<T>> getServiceInstances(ServiceKey<T> key) {
      checkKey(this.key, key);
      return (Set<ActorRef<T>>) (Set<?>) instances;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Listing l && l.key.equals(key) && l.instances.equals(instances);
    }

    @Override
    public int hashCode() {
      return key.hashCode() * 31 + instances.hashCode();
    }

    @Override
    public String toString() {
      return "Listing(" + key + ", " + instances + ")";
    }
  }

  private static void checkKey(ServiceKey<?> mine, ServiceKey<?> asked) {
    if (!mine.equals(asked)) {
      throw new IllegalArgumentException("this is about " + mine + ", not " + asked);
    }
  }
}
