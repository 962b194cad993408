package dev.troupe.bench.savina;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.SavinaMessages.Count;
import dev.troupe.bench.common.SavinaMessages.CountTo;
import dev.troupe.bench.common.SavinaMessages.Increment;
import dev.troupe.bench.common.SavinaMessages.Retrieve;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code Counting}; mirrors {@link TroupeCounting} line by line. */
public final class PekkoCounting implements SavinaDriver {
  private final Impl impl;

  /**
   * @param impl {@code pekko} or {@code pekko-tuned}
   */
  public PekkoCounting(Impl impl) {
    this.impl = impl;
  }

  private ActorSystem system;
  private ActorRef producer;

  @Override
  public void setup(int size) {
    system =
        PekkoSystems.start(
            Names.unique("counting"), Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT));
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
    done.await("pekko counting");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Producer extends UntypedAbstractActor {
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

  static final class Counter extends UntypedAbstractActor {
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
