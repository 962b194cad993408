package dev.troupe.cluster.pubsub;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Extension;
import dev.troupe.actor.ExtensionId;
import dev.troupe.actor.Props;
import dev.troupe.actor.spi.SystemSpi;
import dev.troupe.cluster.internal.core.ClusterServiceDirectory;
import dev.troupe.cluster.internal.pubsub.MediatorActor;

/**
 * Publish-subscribe across the cluster: each member's mediator, an actor under {@code /system}
 * that keeps the topics' subscribers and the actors put under a path on its node, and knows which
 * other members have which (see {@link DistributedPubSubMediator} for its messages). Start it on
 * every member that publishes or subscribes: {@code DistributedPubSub.get(system).mediator()}, or
 * at start with {@code troupe.extensions = ["dev.troupe.cluster.pubsub.DistributedPubSub"]}.
 *
 * <p>Between members only the mediators talk: a member's mediator is listed under each topic,
 * group and path that has an actor on its node (a directory of the receptionist's kind, changes
 * sent to every member, a removed member's entries dropped), and a message for another member goes
 * to its mediator once, which hands it to its own subscribers. A member lists at most 1024 topics,
 * groups and paths in all; past that, a new one stays on its own node, with a warning. With {@code
 * troupe.cluster.pub-sub.role} set, only the members with that role run a mediator (on the others
 * {@link #mediator()} is the dead letters).
 */
public final class DistributedPubSub implements Extension {
  /** The extension's id; {@link #get} is the short way to it. */
  public static final ExtensionId<DistributedPubSub> ID = DistributedPubSub::new;

  /** The mediator's name under {@code /system}. */
  public static final String MEDIATOR_NAME = "distributedPubSubMediator";

  private final ActorRef mediator;
  private final DistributedPubSubSettings settings;
  private final boolean terminated;

  private DistributedPubSub(ActorSystem system) {
    settings = DistributedPubSubSettings.create(system);
    ActorRef directory = ClusterServiceDirectory.pubSubDirectory(system, settings.role());
    if (directory == null) {
      terminated = true; // a member without the role runs no mediator
      mediator = system.deadLetters();
      return;
    }
    if (!(system instanceof SystemSpi spi)) {
      throw new IllegalStateException("system " + system.name() + " is not a Troupe runtime system");
    }
    terminated = false;
    DistributedPubSubSettings s = settings;
    mediator = spi.systemActorOf(Props.create(MediatorActor.class, () -> new MediatorActor(directory, s)),
        MEDIATOR_NAME);
  }

  /**
   * @param system a cluster member ({@code troupe.actor.provider = cluster})
   * @return its publish-subscribe extension, started on first use
   * @throws IllegalStateException if the system is not a cluster member
   */
  public static DistributedPubSub get(ActorSystem system) {
    return system.registerExtension(ID);
  }

  /**
   * @return this member's mediator, {@code /system/distributedPubSubMediator}; the dead letters on a
   *     member without the settings' role
   */
  public ActorRef mediator() {
    return mediator;
  }

  /** @return whether this member runs no mediator: it lacks the role of {@code troupe.cluster.pub-sub.role} */
  public boolean isTerminated() {
    return terminated;
  }

  /** @return the settings the mediator runs with */
  public DistributedPubSubSettings settings() {
    return settings;
  }
}
