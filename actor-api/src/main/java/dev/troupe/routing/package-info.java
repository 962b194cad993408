/**
 * Routers: pools and groups that spread messages over routees, their management messages, and
 * resizers that grow and shrink pools with load.
 *
 * <p>Put a router in front of an actor with {@link dev.troupe.actor.Props#withRouter(RouterConfig)}:
 *
 * <pre>{@code
 * ActorRef workers = system.actorOf(
 *     Props.create(Worker.class).withRouter(new RoundRobinPool(5).withResizer(new DefaultResizer(2, 15))),
 *     "workers");
 * workers.tell(job, getSelf());                   // routed in the sender's thread, no extra hop
 * workers.tell(new Broadcast("flush"), getSelf()); // to every routee
 * }</pre>
 *
 * <p>All router configurations, resizer settings and messages here are immutable values, safe to
 * share between threads and systems. Routing an ordinary message happens in the sending thread on
 * the router's ref; management messages ({@link GetRoutees}, {@link AddRoutee}, {@link
 * RemoveRoutee}, {@link AdjustPoolSize}, {@link Broadcast}) go through the router actor.
 */
package dev.troupe.routing;
