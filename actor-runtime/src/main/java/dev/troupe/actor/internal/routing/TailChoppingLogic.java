package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.spi.AskService;
import dev.troupe.routing.Routee;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends to one routee (in a random order of all routees), then to the next every {@code interval}
 * until a reply arrives or all were tried; the first reply goes to the original sender, and after
 * {@code within} without one the sender gets {@code Status.Failure(AskTimeoutException)}. The
 * repeating timer is cancelled as soon as the exchange completes.
 */
final class TailChoppingLogic implements RoutingLogic {
  private final ActorSystem system;
  private final AskService asks;
  private final ActorRef self;
  private final Duration within;
  private final Duration interval;

  TailChoppingLogic(ActorSystem system, AskService asks, ActorRef self, Duration within, Duration interval) {
    this.system = system;
    this.asks = asks;
    this.self = self;
    this.within = within;
    this.interval = interval;
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    Routee[] order = routees.clone();
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    for (int i = order.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      Routee t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    Cancellable[] timer = new Cancellable[1]; // written inside ask's send callback, which runs before ask returns
    CompletionStage<Object> result =
        asks.ask(
            tmp -> {
              order[0].send(message, tmp);
              if (order.length > 1) {
                AtomicInteger next = new AtomicInteger(1);
                timer[0] =
                    system.scheduler()
                        .scheduleAtFixedRate(
                            interval,
                            interval,
                            () -> {
                              int i = next.getAndIncrement();
                              if (i < order.length) {
                                order[i].send(message, tmp);
                              }
                            },
                            Runnable::run);
              }
            },
            within,
            self.path().toString());
    Cancellable t = timer[0];
    if (t != null) {
      result.whenComplete((r, e) -> t.cancel());
    }
    Replies.pipe(result, system, sender, self);
  }
}
