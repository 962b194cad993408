package dev.troupe.bench.savina;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.SavinaMessages.Token;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code ThreadRing}; mirrors {@link TroupeThreadRing} line by line. */
public final class PekkoThreadRing implements SavinaDriver {
  private final Impl impl;

  /**
   * @param impl {@code pekko} or {@code pekko-tuned}
   */
  public PekkoThreadRing(Impl impl) {
    this.impl = impl;
  }

  private ActorSystem system;
  private ActorRef first;

  /** Setup only: tells a ring member its successor. */
  record Next(ActorRef next) {}

  @Override
  public void setup(int size) {
    system =
        PekkoSystems.start(
            Names.unique("threadring"), Dispatchers.section(impl, Dispatchers.DEFAULT_THROUGHPUT));
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
    done.await("pekko thread ring");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Member extends UntypedAbstractActor {
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
