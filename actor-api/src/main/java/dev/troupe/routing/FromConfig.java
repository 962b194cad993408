package dev.troupe.routing;

/**
 * A router whose kind and settings come from the deployment configuration of the actor's path,
 * {@code troupe.actor.deployment."/path"} (the path below {@code /user}, e.g. {@code /workers} or
 * {@code /parent/workers}):
 *
 * <pre>
 * troupe.actor.deployment {
 *   /workers {
 *     router = round-robin-pool
 *     nr-of-instances = 5
 *     resizer { enabled = on, lower-bound = 2, upper-bound = 15 }
 *   }
 * }
 * </pre>
 *
 * The section is read once, when the router is created; a missing section, an unknown router name
 * or a bad value fails {@code actorOf} with a {@link dev.troupe.actor.ConfigurationException}
 * naming the full key.
 */
public final class FromConfig extends RouterConfig {
  private static final FromConfig INSTANCE = new FromConfig();

  private FromConfig() {}

  /** @return the instance */
  public static FromConfig getInstance() {
    return INSTANCE;
  }

  /** @return {@code null}: the configuration decides */
  @Override
  public String routerDispatcher() {
    return null;
  }

  @Override
  public String toString() {
    return "FromConfig";
  }
}
