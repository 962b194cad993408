package dev.troupe.actor.typed.receptionist;

import dev.troupe.actor.typed.Behavior;

/**
 * The seam through which a module replaces the local receptionist (e.g. a cluster module with one
 * that spans the cluster's nodes). Implementations are found with {@link java.util.ServiceLoader}
 * ({@code provides dev.troupe.actor.typed.receptionist.ReceptionistFactory with ...} in the
 * module's descriptor, or {@code META-INF/services} on the class path) when a system first asks for
 * its receptionist; among the factories that apply to the system the one of highest {@link
 * #priority()} wins, and with none the built-in local receptionist is used.
 *
 * <p>The behaviour handles {@link Receptionist.Command}s ({@code Register}, {@code Deregister},
 * {@code Find}, {@code Subscribe}) and answers with {@link Receptionist.Listing}, {@link
 * Receptionist.Registered} and {@link Receptionist.Deregistered}; it runs as the top-level actor
 * {@code typed-receptionist} of the system, and must drop the instances and subscribers that stop.
 */
public interface ReceptionistFactory {
  /**
   * @param system a classic system about to get a receptionist
   * @return whether this factory serves it (e.g. only when it is a cluster member)
   */
  boolean appliesTo(dev.troupe.actor.ActorSystem system);

  /** @return the rank among applying factories; higher wins */
  default int priority() {
    return 0;
  }

  /**
   * @param system the system
   * @return the receptionist's behaviour
   */
  Behavior<Receptionist.Command> behavior(dev.troupe.actor.ActorSystem system);
}
