/**
 * Troupe's public API: actors, props, refs, paths, supervision, patterns and router
 * configurations, plus the service-provider interfaces the runtime implements.
 *
 * <p>{@link dev.troupe.actor.ActorSystem#create(String)} finds the runtime with {@link
 * java.util.ServiceLoader}; on the module path the runtime module ({@code dev.troupe.runtime})
 * provides it.
 *
 * <p>{@link dev.troupe.actor.Props#create(Class, Object...)} instantiates an actor class
 * reflectively from this module: a modular application opens the package of its actor classes to
 * {@code dev.troupe.actor} (or creates actors with a {@link dev.troupe.actor.Creator}).
 */
// Config types are part of this API (ActorSystem.create(String, Config)), so users must read
// them; Lightbend Config is an automatic module (its manifest names it typesafe.config), and
// javac's warnings about requiring an automatic module are expected for this one directive.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.troupe.actor {
  requires transitive typesafe.config;

  exports dev.troupe.actor;
  exports dev.troupe.actor.spi;
  exports dev.troupe.pattern;
  exports dev.troupe.routing;

  uses dev.troupe.actor.spi.ActorSystemProvider;
}
