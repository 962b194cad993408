package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.routing.Routee;

/** Every routee. */
final class BroadcastLogic implements RoutingLogic {
  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    for (Routee r : routees) {
      r.send(message, sender);
    }
  }
}
