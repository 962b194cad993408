package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.spi.AskService;
import dev.troupe.routing.Routee;
import java.time.Duration;

/**
 * Sends to every routee with one temporary reply ref (the runtime's ask machinery) as sender; the
 * first reply completes it and is passed to the original sender, later ones go to dead letters;
 * after {@code within} the sender gets {@code Status.Failure(AskTimeoutException)}.
 */
final class ScatterGatherLogic implements RoutingLogic {
  private final ActorSystem system;
  private final AskService asks;
  private final ActorRef self;
  private final Duration within;

  ScatterGatherLogic(ActorSystem system, AskService asks, ActorRef self, Duration within) {
    this.system = system;
    this.asks = asks;
    this.self = self;
    this.within = within;
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    Replies.pipe(
        asks.ask(
            tmp -> {
              for (Routee r : routees) {
                r.send(message, tmp);
              }
            },
            within,
            self.path().toString()),
        system,
        sender,
        self);
  }
}
