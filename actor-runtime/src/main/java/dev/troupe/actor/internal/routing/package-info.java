/**
 * Routers: the router actor and its state, the routing logics, and the deployment sections of
 * {@code troupe.actor.deployment} read into the same router configs users build in code.
 */
package dev.troupe.actor.internal.routing;
