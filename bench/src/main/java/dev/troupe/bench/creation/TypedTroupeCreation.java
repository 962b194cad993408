package dev.troupe.bench.creation;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
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

/**
 * Typed Troupe side of {@code ActorCreation} ({@code impl=troupe-typed}): {@link TroupeCreation}'s
 * parent and children written as behaviours. The parent is typed too, so its children are spawned
 * through {@code ActorContext.spawnAnonymous}, the way a typed application creates actors; each
 * child tells the parent "started" when its behaviour is set up and then leaves every message
 * unhandled, as the classic child does. All children of one {@link Spawn} share one behaviour
 * object, as all classic children share one {@code Props}.
 */
final class TypedTroupeCreation implements CreationDriver {
  private static final Props ON_BENCH = Props.empty().withDispatcher(Dispatchers.ID);
  private ActorSystem system;
  private dev.troupe.actor.ActorRef parent;

  @Override
  public void setup() {
    system =
        TroupeSystems.start(
            Names.unique("typed-creation"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
  }

  @Override
  public void spawn(int children) {
    stopParent();
    Completion done = new Completion(1);
    parent = system.actorOf(Adapter.props(Behaviors.setup(Parent::new), ON_BENCH));
    Adapter.<Object>toTyped(parent).tell(new Spawn(done, children));
    done.await("typed troupe creating " + children + " actors");
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
      throw new IllegalStateException("typed troupe parent did not stop", e);
    }
    parent = null;
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  /** Spawns the children of a {@link Spawn} and counts their "started". */
  static final class Parent extends AbstractBehavior<Object> {
    private Completion done;
    private int expected;
    private int started;

    Parent(ActorContext<Object> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Object> createReceive() {
      return newReceiveBuilder()
          .onMessageEquals(Started.INSTANCE, this::onStarted)
          .onMessage(Spawn.class, this::onSpawn)
          .build();
    }

    private Behavior<Object> onStarted() {
      if (++started == expected) {
        done.done();
      }
      return this;
    }

    private Behavior<Object> onSpawn(Spawn s) {
      done = s.done();
      expected = s.children();
      started = 0;
      ActorRef<Object> self = getContext().getSelf();
      Behavior<Object> child =
          Behaviors.setup(
              c -> {
                self.tell(Started.INSTANCE);
                return Behaviors.empty();
              });
      for (int i = 0; i < expected; i++) {
        getContext().spawnAnonymous(child, ON_BENCH);
      }
      return this;
    }
  }
}
