package dev.troupe.bench.savina;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.SavinaMessages.Count;
import dev.troupe.bench.common.SavinaMessages.CountTo;
import dev.troupe.bench.common.SavinaMessages.Increment;
import dev.troupe.bench.common.SavinaMessages.Retrieve;
import dev.troupe.bench.common.TroupeSystems;

/** Troupe side of {@code Counting}; mirrors {@link PekkoCounting} line by line. */
public final class TroupeCounting implements SavinaDriver {
  private ActorSystem system;
  private ActorRef producer;

  @Override
  public void setup(int size) {
    system =
        TroupeSystems.start(
            Names.unique("counting"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    ActorRef counter =
        system.actorOf(Props.create(Counter.class, Counter::new).withDispatcher(Dispatchers.ID));
    producer =
        system.actorOf(
            Props.create(Producer.class, () -> new Producer(counter))
                .withDispatcher(Dispatchers.ID));
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(1);
    producer.tell(new CountTo(done, work), ActorRef.noSender());
    done.await("troupe counting");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Producer extends UntypedActor {
    private final ActorRef counter;
    private Completion done;
    private int expected;

    Producer(ActorRef counter) {
      this.counter = counter;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Count c) {
        if (c.value() == expected) {
          done.done();
        } else {
          done.fail("counted " + c.value() + ", expected " + expected);
        }
      } else if (message instanceof CountTo c) {
        done = c.done();
        expected = c.increments();
        for (int i = 0; i < expected; i++) {
          counter.tell(Increment.INSTANCE, getSelf());
        }
        counter.tell(Retrieve.INSTANCE, getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Counter extends UntypedActor {
    private int count;

    @Override
    public void onReceive(Object message) {
      if (message == Increment.INSTANCE) {
        count++;
      } else if (message == Retrieve.INSTANCE) {
        getSender().tell(new Count(count), getSelf());
        count = 0;
      } else {
        unhandled(message);
      }
    }
  }
}
