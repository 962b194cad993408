package dev.troupe.cluster.singleton.typed;

import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed behaviour to run once in the cluster, under a name: given to {@link ClusterSingleton#init}
 * on every member that may run it or send to it. Immutable; each {@code with} returns a copy.
 *
 * <pre>{@code
 * ActorRef<Boss.Command> boss = ClusterSingleton.get(system).init(
 *     SingletonActor.of(Boss.create(), "boss").withStopMessage(new Boss.Stop()).withRole("backend"));
 * }</pre>
 *
 * @param <M> the singleton's protocol
 */
public final class SingletonActor<M> {
  private final Behavior<M> behavior;
  private final String name;
  private final M stopMessage; // null: stopped directly
  private final String role; // null: the settings' role (troupe.cluster.singleton.role)
  private final Props props;

  private SingletonActor(Behavior<M> behavior, String name, M stopMessage, String role, Props props) {
    this.behavior = behavior;
    this.name = name;
    this.stopMessage = stopMessage;
    this.role = role;
    this.props = props;
  }

  /**
   * @param behavior the singleton's behaviour, started on the member that runs it (again on the
   *     next one when it moves)
   * @param name the singleton's name, the same on every member; not blank
   * @param <M> its protocol
   * @return the singleton, stopped directly when it moves, on the members of the configured role
   */
  public static <M> SingletonActor<M> of(Behavior<M> behavior, String name) {
    Objects.requireNonNull(behavior, "behavior");
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a singleton's name must not be blank");
    }
    return new SingletonActor<>(behavior, name, null, null, Props.empty());
  }

  /**
   * @param stopMessage what the running instance is told when the singleton moves to another member:
   *     it must stop on it (without one it is stopped directly)
   * @return a copy with it
   */
  public SingletonActor<M> withStopMessage(M stopMessage) {
    return new SingletonActor<>(behavior, name, Objects.requireNonNull(stopMessage, "stopMessage"), role, props);
  }

  /**
   * @param role only members with this role run the singleton (and their proxies look there)
   * @return a copy with it
   */
  public SingletonActor<M> withRole(String role) {
    Objects.requireNonNull(role, "role");
    if (role.isBlank()) {
      throw new IllegalArgumentException("a role must not be blank");
    }
    return new SingletonActor<>(behavior, name, stopMessage, role, props);
  }

  /**
   * @param props the singleton's dispatcher and mailbox
   * @return a copy with them
   */
  public SingletonActor<M> withProps(Props props) {
    return new SingletonActor<>(behavior, name, stopMessage, role, Objects.requireNonNull(props, "props"));
  }

  /** @return the behaviour */
  public Behavior<M> behavior() {
    return behavior;
  }

  /** @return the name */
  public String name() {
    return name;
  }

  /** @return the stop message, if one was given */
  public Optional<M> stopMessage() {
    return Optional.ofNullable(stopMessage);
  }

  /** @return the role, if one was given */
  public Optional<String> role() {
    return Optional.ofNullable(role);
  }

  /** @return the props */
  public Props props() {
    return props;
  }

  @Override
  public String toString() {
    return "SingletonActor(" + name + ")";
  }
}
