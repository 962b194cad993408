package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.routing.Routee;
import java.util.concurrent.atomic.AtomicLong;

/** Routee {@code i mod n} for the {@code i}-th message: one shared atomic increment per message. */
final class RoundRobinLogic implements RoutingLogic {
  private final AtomicLong next = new AtomicLong();

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    long i = next.getAndIncrement();
    routees[(int) Long.remainderUnsigned(i, routees.length)].send(message, sender);
  }
}
