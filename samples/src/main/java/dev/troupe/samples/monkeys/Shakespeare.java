package dev.troupe.samples.monkeys;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * One request's playwright: on {@link Write} it hires that many {@link MonkeyWorker}s as its
 * children, asks each of them to type, and composes their answers into one {@link Tally} without
 * waiting on any thread: each ask's stage is judged on its own, and the judged stages are combined
 * pairwise, as a balanced tree (depth log2 N, so ten thousand monkeys make no deep chain). The
 * outcome comes back to it as a message; it answers its client ({@link Written}, or a {@link
 * Status.Failure} with {@link TimedOut} once an ask outlives the workshop's timeout) and stops,
 * which stops every monkey it hired.
 */
final class Shakespeare extends AbstractActor {
  /**
   * The request.
   *
   * @param number how many monkeys to hire, 1..{@link MonkeyServer#MAX_MONKEYS}
   */
  record Write(int number) {}

  /**
   * The answer.
   *
   * @param monkeys how many monkeys typed
   * @param tally their words, judged
   * @param millis how long the monkeys took, from hiring to the last judged answer
   */
  record Written(int monkeys, Tally tally, long millis) {}

  /** The failure when the monkeys did not finish in time. */
  static final class TimedOut extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TimedOut(String message) {
      super(message, null, false, false);
    }
  }

  private final Workshop workshop;
  private ActorRef client; // actor thread only
  private int number; // actor thread only

  Shakespeare(Workshop workshop) {
    this.workshop = workshop;
  }

  static Props props(Workshop workshop) {
    return Props.create(Shakespeare.class, () -> new Shakespeare(workshop));
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder().match(Write.class, this::hire).build();
  }

  private void hire(Write write) {
    client = getSender();
    number = write.number();
    long start = System.nanoTime();
    Lexicon lexicon = workshop.lexicon();
    Props monkey = MonkeyWorker.props(workshop.monkeyDelay(), workshop.liveMonkeys());
    List<CompletionStage<Tally>> judged = new ArrayList<>(number);
    for (int i = 1; i <= number; i++) {
      ActorRef m = getContext().actorOf(monkey, "monkey-" + i);
      judged.add(Patterns.ask(m, MonkeyWorker.Type.PLEASE, workshop.timeout())
          .thenApply(typed -> Tally.of(((MonkeyWorker.Typed) typed).words(), lexicon)));
    }
    int monkeys = number;
    CompletionStage<Written> written = combine(judged, 0, judged.size())
        .thenApply(t -> new Written(monkeys, t, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
    Patterns.pipe(written, getContext().dispatcher()).to(getSelf());
    getContext().become(receiveBuilder()
        .match(Written.class, this::answer)
        .match(Status.Failure.class, this::fail)
        .build());
  }

  /** The tallies from {@code from} (inclusive) to {@code to} (exclusive), combined pairwise. */
  private static CompletionStage<Tally> combine(List<CompletionStage<Tally>> stages, int from, int to) {
    if (to - from == 1) {
      return stages.get(from);
    }
    int mid = (from + to) >>> 1;
    return combine(stages, from, mid).thenCombine(combine(stages, mid, to), Tally::plus);
  }

  private void answer(Written w) {
    client.tell(w, getSelf());
    getContext().stop(getSelf()); // and every monkey with it
  }

  private void fail(Status.Failure f) {
    Throwable cause = f.cause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : f.cause();
    if (cause instanceof AskTimeoutException) {
      cause = new TimedOut(number + " monkeys did not finish typing within " + Durations.format(workshop.timeout()));
    }
    client.tell(new Status.Failure(cause), getSelf());
    getContext().stop(getSelf());
  }
}
