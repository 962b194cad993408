package dev.troupe.actor.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Death-watch state must not outlive the watch, on either side. */
class DeathWatchCleanupTest {
  private final ActorSystem system = ActorSystem.create("watchcleanup");

  @AfterEach
  void terminate() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  record Churn(ActorRef target, int times) {}

  record WatchIt(ActorRef target) {}

  /** Creates a child with this name, watches it, and completes {@code terminated} with its Terminated. */
  record SpawnWatched(String name, CompletableFuture<Terminated> terminated) {}

  /** Watches and unwatches on request; answers "pong" to "ping" and forwards Terminated. */
  static final class Watcher extends AbstractActor {
    private ActorRef terminatedTo;
    private CompletableFuture<Terminated> childTerminated;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Churn.class, c -> {
            for (int i = 0; i < c.times(); i++) {
              getContext().watch(c.target());
              getContext().unwatch(c.target());
            }
            getSender().tell("churned", getSelf());
          })
          .match(WatchIt.class, w -> {
            getContext().watch(w.target());
            terminatedTo = getSender();
            getSender().tell("watching", getSelf());
          })
          .match(SpawnWatched.class, s -> {
            childTerminated = s.terminated();
            getSender().tell(getContext().watch(getContext().actorOf(Props.create(Watcher.class), s.name())), getSelf());
          })
          .match(Terminated.class, t -> {
            if (childTerminated != null) {
              childTerminated.complete(t);
            } else {
              terminatedTo.tell(t, getSelf());
            }
          })
          .matchEquals("ping", m -> getSender().tell("pong", getSelf()))
          .build();
    }
  }

  private Object ask(ActorRef ref, Object msg) throws Exception {
    return Patterns.ask(ref, msg, Duration.ofSeconds(30)).toCompletableFuture().get(40, TimeUnit.SECONDS);
  }

  private static int[] counts(ActorRef ref) {
    return ((LocalActorRef) ref).cell().watchCounts();
  }

  @Test
  void aMillionWatchUnwatchCyclesLeaveNoStateOnEitherSide() throws Exception {
    ActorRef watcher = system.actorOf(Props.create(Watcher.class), "watcher");
    ActorRef target = system.actorOf(Props.create(Watcher.class), "target");
    assertEquals("churned", ask(watcher, new Churn(target, 1_000_000)));
    // the target processes its Watch/Unwatch system messages before this user message
    assertEquals("pong", ask(target, "ping"));
    assertArrayEquals(new int[] {0, 0, 0}, counts(watcher), "watcher side {watching, watchedBy, queued}");
    assertArrayEquals(new int[] {0, 0, 0}, counts(target), "target side {watching, watchedBy, queued}");
  }

  @Test
  void whenEitherSideStopsTheOtherSideForgetsIt() throws Exception {
    ActorRef a = system.actorOf(Props.create(Watcher.class), "a");
    ActorRef parent = system.actorOf(Props.create(Watcher.class), "parent");
    CompletableFuture<Terminated> bGone = new CompletableFuture<>();
    ActorRef b = (ActorRef) ask(parent, new SpawnWatched("b", bGone));
    assertEquals("watching", ask(a, new WatchIt(b)));
    assertEquals("watching", ask(b, new WatchIt(a)));
    // a processes b's Watch (a system message) before this user message
    assertEquals("pong", ask(a, "ping"));
    assertArrayEquals(new int[] {1, 1, 0}, counts(a), "a watches b and is watched by b");

    system.stop(b);
    // A stopping actor tells its watchers, then unwatches, then tells its parent: once the parent
    // heard, a's system queue holds b's death notice and b's Unwatch.
    bGone.get(10, TimeUnit.SECONDS);
    assertEquals("pong", ask(a, "ping")); // a ran both, queuing Terminated(b) to itself behind this ping
    assertEquals("pong", ask(a, "ping")); // ... and has processed that Terminated before this one
    assertArrayEquals(new int[] {0, 0, 0}, counts(a), "watch state of a after b stopped");
  }
}
