package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.routing.Routee;
import java.util.concurrent.atomic.AtomicInteger;

/** Routee {@code i mod n} for the {@code i}-th message: one shared atomic increment per message. */
final class RoundRobinLogic implements RoutingLogic {
  private final AtomicInteger next = new AtomicInteger();

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    // An int counter and a 32-bit remainder: the division is on every routed message. Masking
    // the sign bit keeps the index valid after wrap-around (the order then restarts at 0).
    int i = next.getAndIncrement() & Integer.MAX_VALUE;
    routees[i % routees.length].send(message, sender);
  }
}
