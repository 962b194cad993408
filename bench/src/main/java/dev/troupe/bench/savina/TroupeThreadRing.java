package dev.troupe.bench.savina;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.SavinaMessages.Token;
import dev.troupe.bench.common.TroupeSystems;

/** Troupe side of {@code ThreadRing}; mirrors {@link PekkoThreadRing} line by line. */
public final class TroupeThreadRing implements SavinaDriver {
  private ActorSystem system;
  private ActorRef first;

  /** Setup only: tells a ring member its successor. */
  record Next(ActorRef next) {}

  @Override
  public void setup(int size) {
    system =
        TroupeSystems.start(
            Names.unique("threadring"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    ActorRef[] ring = new ActorRef[size];
    for (int i = 0; i < size; i++) {
      ring[i] =
          system.actorOf(Props.create(Member.class, Member::new).withDispatcher(Dispatchers.ID));
    }
    for (int i = 0; i < size; i++) {
      ring[i].tell(new Next(ring[(i + 1) % size]), ActorRef.noSender());
    }
    first = ring[0];
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(1);
    first.tell(new Token(work, done), ActorRef.noSender());
    done.await("troupe thread ring");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Member extends UntypedActor {
    private ActorRef next;

    @Override
    public void onReceive(Object message) {
      if (message instanceof Token t) {
        if (t.hopsLeft() > 0) {
          next.tell(new Token(t.hopsLeft() - 1, t.done()), getSelf());
        } else {
          t.done().done();
        }
      } else if (message instanceof Next n) {
        next = n.next();
      } else {
        unhandled(message);
      }
    }
  }
}
