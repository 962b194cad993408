package dev.troupe.testkit;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.SupervisorStrategy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;

/**
 * The test actor behind a {@link TestKit}: it queues every message it receives for the test thread,
 * and runs the kit's requests that must happen on the actor's own thread (watch, child creation).
 */
final class TestActor {
  private TestActor() {}

  /** A message as the test actor received it. */
  record Received(Object message, ActorRef sender) {}

  /** Requests the test actor runs on its own thread. */
  sealed interface Control {
    CompletableFuture<ActorRef> done();

    record Watch(ActorRef ref, boolean watch, CompletableFuture<ActorRef> done) implements Control {
      Watch(ActorRef ref, boolean watch) {
        this(ref, watch, new CompletableFuture<>());
      }
    }

    record CreateChild(Props props, String name, CompletableFuture<ActorRef> done) implements Control {}
  }

  /** Queues everything it receives; performs {@link Control} requests. */
  static final class Actor extends AbstractActor {
    private final LinkedBlockingDeque<Received> queue;

    Actor(LinkedBlockingDeque<Received> queue) {
      this.queue = queue;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return SupervisorStrategy.defaultStrategy();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Control.Watch.class, w -> {
            if (w.watch()) {
              getContext().watch(w.ref());
            } else {
              getContext().unwatch(w.ref());
            }
            w.done().complete(w.ref());
          })
          .match(Control.CreateChild.class, c -> {
            try {
              c.done().complete(c.name() == null ? getContext().actorOf(c.props()) : getContext().actorOf(c.props(), c.name()));
            } catch (RuntimeException e) {
              c.done().completeExceptionally(e);
            }
          })
          .matchAny(m -> queue.offerLast(new Received(m, getSender())))
          .build();
    }
  }
}
