package dev.troupe.samples.monkeys;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.Props;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A monkey at a typewriter: asked to {@link Type}, it answers a few words of random letters ({@link
 * Lexicon#type()}), at once or after its delay. A delayed answer is a scheduled message, not a
 * sleeping thread, and it is cancelled if the monkey is stopped first.
 */
final class MonkeyWorker extends AbstractActor {
  /** The request: type something. */
  enum Type {
    /** The only instance. */
    PLEASE
  }

  /**
   * The answer.
   *
   * @param words what the monkey typed, lowercase letters only
   */
  record Typed(List<String> words) {}

  private final Duration delay;
  private final AtomicInteger live;
  private Cancellable pending; // actor thread only

  MonkeyWorker(Duration delay, AtomicInteger live) {
    this.delay = delay;
    this.live = live;
  }

  static Props props(Duration delay, AtomicInteger live) {
    return Props.create(MonkeyWorker.class, () -> new MonkeyWorker(delay, live));
  }

  @Override
  public void preStart() {
    live.incrementAndGet();
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .matchEquals(Type.PLEASE, p -> {
          Typed typed = new Typed(Lexicon.type());
          if (delay.isZero()) {
            getSender().tell(typed, getSelf());
          } else {
            pending = getContext().getSystem().scheduler()
                .scheduleOnce(delay, getSender(), typed, getContext().dispatcher(), getSelf());
          }
        })
        .build();
  }

  @Override
  public void postStop() {
    if (pending != null) {
      pending.cancel();
    }
    live.decrementAndGet();
  }
}
