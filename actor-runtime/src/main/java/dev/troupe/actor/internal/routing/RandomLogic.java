package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.routing.Routee;
import java.util.concurrent.ThreadLocalRandom;

/** A uniformly random routee; no shared state. */
final class RandomLogic implements RoutingLogic {
  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    routees[ThreadLocalRandom.current().nextInt(routees.length)].send(message, sender);
  }
}
