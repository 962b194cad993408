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

  /** Watches and unwatches on request; answers "pong" to "ping" and forwards Terminated. */
  static final class Watcher extends AbstractActor {
    private ActorRef terminatedTo;

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
          .match(Terminated.class, t -> terminatedTo.tell(t, getSelf()))
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
    ActorRef b = system.actorOf(Props.create(Watcher.class), "b");
    ActorRef observer = system.actorOf(Props.create(Watcher.class), "observer");
    assertEquals("watching", ask(a, new WatchIt(b)));
    assertEquals("watching", ask(b, new WatchIt(a)));
    assertEquals("watching", ask(observer, new WatchIt(b)));
    awaitCounts(a, new int[] {1, 1, 0}); // a watches b and is watched by b
    system.stop(b);
    // a received Terminated(b) (its watch entry is gone) and b's Unwatch (b no longer watches a)
    Object t = Patterns.ask(a, "ping", Duration.ofSeconds(10)).toCompletableFuture().get(15, TimeUnit.SECONDS);
    assertEquals("pong", t);
    awaitCounts(a, new int[] {0, 0, 0});
  }

  private static void awaitCounts(ActorRef ref, int[] expected) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int[] last;
    do {
      last = counts(ref);
      if (java.util.Arrays.equals(expected, last)) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(5); // polling interval while the cleanup messages arrive
    } while (System.nanoTime() < end);
    assertArrayEquals(expected, last, "watch state of " + ref + " not cleaned up within 10 s");
  }
}
