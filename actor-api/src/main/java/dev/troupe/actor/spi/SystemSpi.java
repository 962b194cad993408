package dev.troupe.actor.spi;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.Props;

/**
 * Implemented by every runtime {@link dev.troupe.actor.ActorSystem}: the per-system services that
 * the API's static accessors (such as {@link CoordinatedShutdown#get}) and other modules (the typed
 * system's {@code systemActorOf} and {@code ActorRefResolver}) hand out.
 */
public interface SystemSpi {
  /** @return the system's one coordinated shutdown */
  CoordinatedShutdown coordinatedShutdown();

  /**
   * Starts an actor under {@code /system}, for a module's own long-lived services. When the
   * system terminates it stops after every actor under {@code /user}. It is supervised by the
   * {@code /system} guardian with the default strategy.
   *
   * @param props what to start
   * @param name its name, unique among the children of {@code /system}
   * @return its ref
   * @throws dev.troupe.actor.InvalidActorNameException if the name is not a valid actor name or is
   *     taken
   * @throws IllegalStateException if the system is terminating or terminated
   */
  ActorRef systemActorOf(Props props, String name);

  /**
   * The ref a full actor path names, as remoting resolves the paths it reads: a live actor of this
   * system, an actor of another node (when remoting is on), or a ref whose messages go to dead
   * letters when nothing lives at the path (or its uid names an earlier incarnation). Never blocks.
   *
   * @param path a full path, with its uid where known
   * @return the ref; never null
   */
  ActorRef resolveActorRef(ActorPath path);

  /**
   * @param name the logger's name (a class name, usually)
   * @return a logger of that name, through the runtime's logging (SLF4J)
   */
  LoggingAdapter logger(String name);
}
