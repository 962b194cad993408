package dev.troupe.actor.tests.routing;

import static dev.troupe.actor.tests.routing.RoutingFixtures.routees;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.tests.routing.RoutingFixtures.Block;
import dev.troupe.actor.tests.routing.RoutingFixtures.Reporter;
import dev.troupe.routing.DefaultResizer;
import dev.troupe.routing.FromConfig;
import dev.troupe.routing.RoundRobinPool;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ResizerTest {
  @RegisterExtension
  static final ActorSystemExtension troupe =
      ActorSystemExtension.perClass(
          RoutingFixtures.CONFIG
              + """
              troupe.actor.deployment {
                "/resized-from-config" {
                  router = round-robin-pool
                  nr-of-instances = 1
                  resizer {
                    enabled = on
                    lower-bound = 1
                    upper-bound = 4
                    rampup-rate = 1.0
                    backoff-threshold = 0.5
                    backoff-rate = 0.5
                    messages-per-resize = 2
                  }
                }
              }
              """);

  private static final long DEADLINE_NANOS = 10_000_000_000L;

  @Test
  void aPoolGrowsToItsUpperBoundUnderPressureAndShrinksBackWhenIdle() {
    DefaultResizer resizer =
        new DefaultResizer(1, 4)
            .withRampupRate(1.0)
            .withBackoffThreshold(0.5)
            .withBackoffRate(0.5)
            .withMessagesPerResize(2);
    growAndShrink(p -> troupe.system().actorOf(p.withRouter(new RoundRobinPool(1).withResizer(resizer))));
  }

  @Test
  void aResizerFromConfigBehavesLikeTheSameResizerInCode() {
    growAndShrink(p -> troupe.system().actorOf(p.withRouter(FromConfig.getInstance()), "resized-from-config"));
  }

  private void growAndShrink(java.util.function.Function<Props, ActorRef> create) {
    ActorSystem system = troupe.system();
    TestProbe reports = new TestProbe(system);
    TestProbe query = new TestProbe(system);
    ActorRef router = create.apply(Props.create(Reporter.class, reports.getRef()).withDispatcher("blocking-dispatcher"));
    CountDownLatch release = new CountDownLatch(1);
    List<Integer> sizes = new ArrayList<>();
    try {
      // Sustained pressure: every routee blocks on its first message and the rest queue up.
      long deadline = System.nanoTime() + DEADLINE_NANOS;
      int size = 1;
      while (size < 4 && System.nanoTime() < deadline) {
        for (int i = 0; i < 4; i++) {
          router.tell(new Block(release), ActorRef.noSender());
        }
        size = routees(query, router).size();
        sizes.add(size);
      }
      assertTrue(size == 4, "grew to the upper bound 4; sizes seen " + sizes);
    } finally {
      release.countDown();
    }
    // Idle routees (messages answered at once): the pool backs off to its lower bound.
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    int size = 4;
    while (size > 1 && System.nanoTime() < deadline) {
      router.tell("light", ActorRef.noSender());
      size = routees(query, router).size();
      sizes.add(size);
    }
    assertTrue(size == 1, "shrank to the lower bound 1; sizes seen " + sizes);
    for (int s : sizes) {
      assertTrue(s >= 1 && s <= 4, "stayed within the bounds: " + sizes);
    }
  }
}
