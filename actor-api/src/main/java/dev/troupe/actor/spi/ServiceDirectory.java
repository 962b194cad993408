package dev.troupe.actor.spi;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import java.util.Objects;
import java.util.Set;

/**
 * Service instances on the other nodes of a system that spans several (a cluster): how the typed
 * module's receptionist becomes cluster-wide without either module knowing the other. The module
 * that spans the nodes provides an implementation, found with {@link java.util.ServiceLoader}
 * ({@code provides dev.troupe.actor.spi.ServiceDirectory with ...}, or {@code META-INF/services} on
 * the class path); the receptionist uses the first one that {@link #appliesTo} its system, and stays
 * local without one.
 *
 * <p>The directory is an actor on each node. The receptionist attaches to it once ({@link Attach}),
 * tells it, after every change, all of its own node's instances of the service that changed ({@link
 * LocalInstances}), and hears, after every change elsewhere, all the other nodes' instances of a
 * service ({@link RemoteInstances}). Both are whole sets, so a message lost to a node that left
 * cannot leave a stale entry behind a later one. A service is named by a string the receptionist
 * chooses (its key's message class and id), which the directory does not interpret. Instances are
 * classic refs; a node's instances disappear from the others when it is removed from the cluster.
 */
public interface ServiceDirectory {
  /**
   * @param system a system whose receptionist is starting
   * @return whether this directory serves it (e.g. only when it is a cluster member)
   */
  boolean appliesTo(ActorSystem system);

  /**
   * @param system a system this directory {@link #appliesTo}
   * @return the directory's actor on that system's node
   */
  ActorRef directory(ActorSystem system);

  /**
   * To the directory, first: where to send {@link RemoteInstances}. The directory answers with the
   * other nodes' instances of every service it knows of.
   *
   * @param receptionist the receptionist's ref (local)
   */
  record Attach(ActorRef receptionist) {
    public Attach {
      Objects.requireNonNull(receptionist, "receptionist");
    }
  }

  /**
   * To the directory: all of this node's instances of one service, now (empty: none any more).
   *
   * @param service the service's name
   * @param instances the instances, local refs
   */
  record LocalInstances(String service, Set<ActorRef> instances) {
    public LocalInstances {
      Objects.requireNonNull(service, "service");
      instances = Set.copyOf(instances);
    }
  }

  /**
   * From the directory: all the other nodes' instances of one service, now (empty: none).
   *
   * @param service the service's name
   * @param instances the instances, refs to actors on other nodes
   */
  record RemoteInstances(String service, Set<ActorRef> instances) {
    public RemoteInstances {
      Objects.requireNonNull(service, "service");
      instances = Set.copyOf(instances);
    }
  }
}
