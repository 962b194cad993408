package dev.troupe.bench.creation;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.CreationMessages.Spawn;
import dev.troupe.bench.common.CreationMessages.Started;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Troupe side of {@code ActorCreation}; mirrors {@link PekkoCreation} line by line. */
final class TroupeCreation implements CreationDriver {
  private ActorSystem system;
  private ActorRef parent;

  @Override
  public void setup() {
    system =
        TroupeSystems.start(
            Names.unique("creation"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
  }

  @Override
  public void spawn(int children) {
    stopParent();
    Completion done = new Completion(1);
    parent = system.actorOf(Props.create(Parent.class, Parent::new).withDispatcher(Dispatchers.ID));
    parent.tell(new Spawn(done, children), ActorRef.noSender());
    done.await("troupe creating " + children + " actors");
  }

  @Override
  public void stopParent() {
    if (parent == null) {
      return;
    }
    try {
      Patterns.gracefulStop(parent, Duration.ofSeconds(60))
          .toCompletableFuture()
          .get(70, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("troupe parent did not stop", e);
    }
    parent = null;
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Parent extends UntypedActor {
    private static final Props CHILD =
        Props.create(Child.class, Child::new).withDispatcher(Dispatchers.ID);
    private Completion done;
    private int expected;
    private int started;

    @Override
    public void onReceive(Object message) {
      if (message == Started.INSTANCE) {
        if (++started == expected) {
          done.done();
        }
      } else if (message instanceof Spawn s) {
        done = s.done();
        expected = s.children();
        started = 0;
        for (int i = 0; i < expected; i++) {
          getContext().actorOf(CHILD);
        }
      } else {
        unhandled(message);
      }
    }
  }

  static final class Child extends UntypedActor {
    @Override
    public void preStart() {
      getContext().getParent().tell(Started.INSTANCE, getSelf());
    }

    @Override
    public void onReceive(Object message) {
      unhandled(message);
    }
  }
}
