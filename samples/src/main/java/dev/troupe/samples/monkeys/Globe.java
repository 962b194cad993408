package dev.troupe.samples.monkeys;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import java.util.Iterator;

/**
 * The playhouse, {@code /user/globe}, the server's one fixed actor: it gives every {@link
 * Shakespeare.Write} a {@link Shakespeare} of its own (so concurrent requests share nothing), and
 * answers {@link Census#PLEASE} with {@link Working}: how many are at work.
 */
final class Globe extends AbstractActor {
  /** Its name under {@code /user}. */
  static final String NAME = "globe";

  /** The question: how many Shakespeares are at work? */
  enum Census {
    /** The only instance. */
    PLEASE
  }

  /**
   * The answer to {@link Census}.
   *
   * @param shakespeares children not yet stopped
   */
  record Working(int shakespeares) {}

  private final Workshop workshop;
  private long requests; // actor thread only

  private Globe(Workshop workshop) {
    this.workshop = workshop;
  }

  static Props props(Workshop workshop) {
    return Props.create(Globe.class, () -> new Globe(workshop));
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(Shakespeare.Write.class, w ->
            getContext().actorOf(Shakespeare.props(workshop), "shakespeare-" + ++requests).forward(w, getContext()))
        .matchEquals(Census.PLEASE, r -> {
          int n = 0;
          for (Iterator<ActorRef> i = getContext().getChildren().iterator(); i.hasNext(); i.next()) {
            n++;
          }
          getSender().tell(new Working(n), getSelf());
        })
        .build();
  }
}
