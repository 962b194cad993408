package dev.troupe.actor.internal.dispatch;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * The intrusive MPSC queue under two producers and a consumer polling concurrently: every
 * envelope is taken exactly once, each producer's envelopes in its order, and an envelope's
 * payload is fully visible to the consumer (the release/acquire pair on {@code next}).
 */
@JCStressTest
@Outcome(id = "OK", expect = Expect.ACCEPTABLE, desc = "all taken once, per-producer order kept")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated, reordered or torn")
@State
public class NodeQueueMpscTest {
  private final NodeQueue queue = new NodeQueue();
  private final List<Object> taken = new ArrayList<>(4); // consumer, then arbiter

  @Actor
  public void producerA() {
    queue.offer(new Envelope("a1", null));
    queue.offer(new Envelope("a2", null));
  }

  @Actor
  public void producerB() {
    queue.offer(new Envelope("b1", null));
  }

  @Actor
  public void consumer() {
    for (int i = 0; i < 2; i++) {
      Envelope e = queue.poll();
      if (e != null) {
        taken.add(e.message() == null ? "torn" : e.message());
        e.clear();
      }
    }
  }

  @Arbiter
  public void arbiter(L_Result r) {
    Envelope e;
    while ((e = queue.poll()) != null) {
      taken.add(e.message());
    }
    boolean ok =
        taken.size() == 3
            && taken.contains("a1")
            && taken.contains("a2")
            && taken.contains("b1")
            && taken.indexOf("a1") < taken.indexOf("a2")
            && !queue.hasMessages();
    r.r1 = ok ? "OK" : taken.toString();
  }
}
