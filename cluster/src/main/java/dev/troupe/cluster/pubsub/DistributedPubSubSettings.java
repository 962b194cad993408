package dev.troupe.cluster.pubsub;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.internal.config.ClusterConfig;
import dev.troupe.runtime.spi.ConfigReader;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of the publish-subscribe mediator: an immutable value read from {@code
 * troupe.cluster.pub-sub}.
 */
public final class DistributedPubSubSettings {
  /** The section the settings come from. */
  public static final String ROOT = "troupe.cluster.pub-sub";

  /** How a {@link DistributedPubSubMediator.Send} or a group's message picks one of several. */
  public enum RoutingLogic {
    /** A member at random among those that have one, then one of its actors at random. */
    RANDOM,
    /** Each member that has one in turn, per path or group, then its actors in turn. */
    ROUND_ROBIN
  }

  private final RoutingLogic routingLogic;
  private final boolean sendToDeadLettersWhenNoSubscribers;
  private final Optional<String> role;

  private DistributedPubSubSettings(RoutingLogic routingLogic, boolean sendToDeadLettersWhenNoSubscribers,
      Optional<String> role) {
    this.routingLogic = routingLogic;
    this.sendToDeadLettersWhenNoSubscribers = sendToDeadLettersWhenNoSubscribers;
    this.role = role;
  }

  /**
   * @param system an actor system
   * @return the settings in its configuration
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static DistributedPubSubSettings create(ActorSystem system) {
    return create(system.settings().config());
  }

  /**
   * @param config a whole configuration (with the cluster's reference.conf as its fallback)
   * @return the settings in it
   * @throws ConfigurationException naming the full key of a malformed value
   */
  public static DistributedPubSubSettings create(Config config) {
    Config section = ClusterConfig.section(config, ROOT);
    String logic = ConfigReader.string(section, ROOT, "routing-logic");
    RoutingLogic parsed = switch (logic) {
      case "random" -> RoutingLogic.RANDOM;
      case "round-robin" -> RoutingLogic.ROUND_ROBIN;
      default -> throw ClusterConfig.bad(ROOT, "routing-logic", "random or round-robin, was '" + logic + "'");
    };
    String role = ConfigReader.string(section, ROOT, "role");
    if (!role.strip().equals(role)) {
      throw ClusterConfig.bad(ROOT, "role", "a role is a name without surrounding spaces, was '" + role + "'");
    }
    return new DistributedPubSubSettings(parsed,
        ConfigReader.bool(section, ROOT, "send-to-dead-letters-when-no-subscribers"),
        role.isEmpty() ? Optional.empty() : Optional.of(role));
  }

  /**
   * @return the role of the members that run a mediator ({@code role}); empty = every member. On
   *     a member without it the mediator is the dead letters.
   */
  public Optional<String> role() {
    return role;
  }

  /**
   * @param role the role of the members that run a mediator; {@code ""} = every member
   * @return a copy with it
   */
  public DistributedPubSubSettings withRole(String role) {
    Objects.requireNonNull(role, "role");
    return new DistributedPubSubSettings(routingLogic, sendToDeadLettersWhenNoSubscribers,
        role.isEmpty() ? Optional.empty() : Optional.of(role));
  }

  /** @return how one of several is picked ({@code routing-logic}) */
  public RoutingLogic routingLogic() {
    return routingLogic;
  }

  /**
   * @return whether a message that reaches no one goes to the dead letters ({@code
   *     send-to-dead-letters-when-no-subscribers}); else it is dropped without a word
   */
  public boolean sendToDeadLettersWhenNoSubscribers() {
    return sendToDeadLettersWhenNoSubscribers;
  }

  /**
   * @param logic how one of several is picked
   * @return a copy with it
   */
  public DistributedPubSubSettings withRoutingLogic(RoutingLogic logic) {
    return new DistributedPubSubSettings(Objects.requireNonNull(logic, "logic"), sendToDeadLettersWhenNoSubscribers, role);
  }

  /**
   * @param on whether a message that reaches no one goes to the dead letters
   * @return a copy with it
   */
  public DistributedPubSubSettings withSendToDeadLettersWhenNoSubscribers(boolean on) {
    return new DistributedPubSubSettings(routingLogic, on, role);
  }

  @Override
  public String toString() {
    return "DistributedPubSubSettings(routing-logic=" + routingLogic + ", send-to-dead-letters-when-no-subscribers="
        + sendToDeadLettersWhenNoSubscribers + ", role=" + role.orElse("") + ")";
  }
}
