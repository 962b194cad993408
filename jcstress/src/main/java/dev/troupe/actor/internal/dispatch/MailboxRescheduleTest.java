package dev.troupe.actor.internal.dispatch;

import dev.troupe.runtime.spi.SystemMessage;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The mailbox's no-lost-schedule protocol: a run ending (drain, mark idle, re-check) races with a
 * producer enqueuing (offer, read status, maybe schedule). The message must be processed by the
 * run or the mailbox must be handed to the executor again; never neither.
 *
 * <p>Result: (messages processed by the run, hand-offs to the executor after the race).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the ending run processed the message")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "the message arrived after the drain; rescheduled")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "processed, and a harmless extra run scheduled")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "message stranded: not processed, mailbox idle")
@Outcome(expect = Expect.FORBIDDEN, desc = "processed twice or scheduled twice")
@State
public class MailboxRescheduleTest implements MailboxOwner {
  private final CountingExecutor executor = new CountingExecutor();
  private final Mailbox mailbox;
  private int processed; // consumer thread only; read by the arbiter after both actors joined

  public MailboxRescheduleTest() {
    DispatcherSettings settings =
        new DispatcherSettings("jcstress", "Dispatcher", "fork-join-executor", 100, Duration.ZERO, ConfigFactory.empty());
    mailbox = new Dispatcher(settings, executor).newMailbox(new MailboxType.Unbounded());
    mailbox.setOwner(this);
    mailbox.trySchedule(false, true, false); // now SCHEDULED, as if a worker were about to run it
    executor.executions.set(0);
  }

  @Actor
  public void endingRun() {
    mailbox.run();
  }

  @Actor
  public void producer() {
    mailbox.enqueue(new Envelope("m", null));
  }

  @Arbiter
  public void arbiter(II_Result r) {
    r.r1 = processed;
    r.r2 = executor.executions.get();
  }

  @Override
  public void invoke(Envelope envelope) {
    processed++;
    envelope.clear();
  }

  @Override
  public void systemInvoke(SystemMessage message) {}

  @Override
  public void deadLetter(Object message, ActorRef sender, boolean mailboxFull) {}
}
