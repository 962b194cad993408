package dev.troupe.actor.typed.delivery.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.SequencedMessage;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.ProducerController.MessageWithConfirmation;
import dev.troupe.actor.typed.delivery.ProducerController.RegisterConsumer;
import dev.troupe.actor.typed.delivery.ProducerController.RequestNext;
import dev.troupe.actor.typed.delivery.ProducerController.Start;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The producer controller: numbers the producer's messages, keeps those the consumer has not
 * confirmed, sends them within the consumer controller's demand and again when asked, and tells the
 * askers of {@link MessageWithConfirmation} when theirs are confirmed. Its state is touched by its
 * actor's thread only.
 *
 * @param <A> the producer's messages
 */
public final class ProducerControllerImpl<A> {
  /**
   * The consumer controller's demand: it confirmed every message up to {@code confirmedSeqNr} and
   * takes those up to {@code requestUpToSeqNr}.
   *
   * @param confirmedSeqNr the highest confirmed sequence number
   * @param requestUpToSeqNr the highest sequence number the producer controller may send
   * @param supportResend whether the consumer controller asks for lost messages (else they are not
   *     kept)
   * @param viaTimeout whether it was sent because nothing arrived for a while: then every
   *     unconfirmed message is sent again
   * @param <A> the producer's messages
   */
  public record Request<A>(long confirmedSeqNr, long requestUpToSeqNr, boolean supportResend, boolean viaTimeout)
      implements ProducerController.Command<A> {}

  /**
   * The consumer controller saw a gap: the messages from {@code fromSeqNr} on are wanted again.
   *
   * @param fromSeqNr the first missing sequence number
   * @param <A> the producer's messages
   */
  public record Resend<A>(long fromSeqNr) implements ProducerController.Command<A> {}

  /**
   * The consumer confirmed every message up to {@code confirmedSeqNr}: sent at once after a message
   * marked {@code ack}.
   *
   * @param confirmedSeqNr the highest confirmed sequence number
   * @param <A> the producer's messages
   */
  public record Ack<A>(long confirmedSeqNr) implements ProducerController.Command<A> {}

  /**
   * Tells the owner of a producer controller created with a {@code confirmationsTo} (the work
   * pulling controller, for its workers' controllers) that the consumer confirmed every message up
   * to {@code confirmedSeqNr}.
   *
   * @param producerId the producer controller's id
   * @param confirmedSeqNr the highest confirmed sequence number
   */
  public record Confirmed(String producerId, long confirmedSeqNr) {}

  /** A message from the producer, through the {@code sendNextTo} adapter. */
  private record Msg<A>(A message) {}

  /** The timer's tick: send the first message again, the consumer controller has not answered. */
  private enum ResendFirst { TICK }

  /** The consumer controller this one watched stopped. */
  private record ConsumerTerminated(ActorRef<?> consumer) {}

  private final ActorContext<Object> ctx;
  private final TimerScheduler<Object> timers;
  private final String producerId;
  private final ProducerController.Settings settings;
  private final ActorRef<A> sendNextTo;
  private final ActorRef<ProducerController.Command<A>> self;
  /** Gets a {@link Confirmed} whenever more is confirmed (every message then asks for an ack), or null. */
  private final ActorRef<Object> confirmationsTo;

  private ActorRef<RequestNext<A>> producer;
  private ActorRef<ConsumerController.Command<A>> consumer;
  /** The sequence number the producer's next message gets. */
  private long currentSeqNr = 1;
  /** Every message up to this one is confirmed. */
  private long confirmedSeqNr;
  /** The highest sequence number the consumer controller takes now. */
  private long requestedSeqNr = 1;
  /** The sequence number of the first message to the current consumer controller. */
  private long firstSeqNr = 1;
  /** Whether the current consumer controller has not answered yet (its first message is sent again). */
  private boolean awaitingFirstRequest = true;
  /** Whether the producer holds a {@link RequestNext} it has not used yet. */
  private boolean requested;
  private boolean supportResend = true;
  /** The messages sent and not confirmed, in order: {@code confirmedSeqNr + 1} first. */
  private final ArrayDeque<SequencedMessage<A>> unconfirmed = new ArrayDeque<>();
  private final TreeMap<Long, ActorRef<Long>> replyAfterConfirmation = new TreeMap<>();

  private ProducerControllerImpl(
      ActorContext<Object> ctx, TimerScheduler<Object> timers, Class<A> messageClass, String producerId,
      ProducerController.Settings settings, ActorRef<Object> confirmationsTo) {
    this.ctx = ctx;
    this.confirmationsTo = confirmationsTo;
    this.timers = timers;
    this.producerId = producerId;
    this.settings = settings;
    this.sendNextTo = ctx.messageAdapter(messageClass, Msg::new);
    this.self = ctx.getSelf().unsafeUpcast();
  }

  /**
   * @param messageClass the producer's messages
   * @param producerId the producer's id
   * @param settings the settings, or null for the system's
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<ProducerController.Command<A>> create(
      Class<A> messageClass, String producerId, ProducerController.Settings settings) {
    return create(messageClass, producerId, settings, null);
  }

  /**
   * A producer controller that tells {@code confirmationsTo} each advance of what its consumer
   * confirmed, as a {@link Confirmed}, and has every message acknowledged at once.
   *
   * @param messageClass the producer's messages
   * @param producerId the producer's id
   * @param settings the settings, or null for the system's
   * @param confirmationsTo gets the {@link Confirmed}s, or null
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<ProducerController.Command<A>> create(
      Class<A> messageClass, String producerId, ProducerController.Settings settings, ActorRef<Object> confirmationsTo) {
    Behavior<Object> b = Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ProducerController.Settings s = settings != null ? settings : ProducerController.Settings.create(ctx.getSystem());
      ProducerControllerImpl<A> state = new ProducerControllerImpl<>(ctx, timers, messageClass, producerId, s, confirmationsTo);
      return Behaviors.receive((c, msg) -> state.onMessage(msg));
    }));
    return Typing.cast(b);
  }

  @SuppressWarnings("unchecked")
  private Behavior<Object> onMessage(Object msg) {
    if (msg instanceof Msg<?> m) {
      onMessageFromProducer((A) m.message(), null);
    } else if (msg instanceof Request<?> r) {
      onRequest(r);
    } else if (msg instanceof Ack<?> a) {
      onConfirmed(a.confirmedSeqNr());
    } else if (msg instanceof Resend<?> r) {
      resendFrom(r.fromSeqNr());
    } else if (msg instanceof MessageWithConfirmation<?> m) {
      onMessageFromProducer((A) m.message(), m.replyTo());
    } else if (msg == ResendFirst.TICK) {
      resendFirst();
    } else if (msg instanceof Start<?> s) {
      onStart((ActorRef<RequestNext<A>>) (ActorRef<?>) s.producer());
    } else if (msg instanceof RegisterConsumer<?> r) {
      onRegisterConsumer((ActorRef<ConsumerController.Command<A>>) (ActorRef<?>) r.consumerController());
    } else if (msg instanceof ConsumerTerminated t) {
      onConsumerTerminated(t.consumer());
    } else {
      return Behaviors.unhandled();
    }
    return Behaviors.same();
  }

  private void onStart(ActorRef<RequestNext<A>> p) {
    boolean replaced = producer != null && !producer.equals(p);
    producer = p;
    if (replaced && requested) {
      requested = false; // the old producer's request is void: the new one gets its own
    }
    requestNext();
  }

  private void onRegisterConsumer(ActorRef<ConsumerController.Command<A>> c) {
    if (c.equals(consumer)) {
      return;
    }
    if (consumer != null) {
      ctx.unwatch(consumer);
      ctx.getLog().debug("producer controller [{}]: consumer controller {} replaces {}", producerId, c, consumer);
    }
    consumer = c;
    ctx.watchWith(c, new ConsumerTerminated(c));
    // the new consumer controller starts with the first unconfirmed message, or the next one
    firstSeqNr = confirmedSeqNr + 1;
    awaitingFirstRequest = true;
    requestedSeqNr = unconfirmed.isEmpty() ? currentSeqNr : currentSeqNr - 1;
    for (SequencedMessage<A> m : unconfirmed) {
      c.tell(m.seqNr() == firstSeqNr ? m.asFirst() : m);
    }
    if (!unconfirmed.isEmpty()) {
      startResendFirstTimer();
    }
    requestNext();
  }

  private void onConsumerTerminated(ActorRef<?> c) {
    if (c.equals(consumer)) {
      ctx.getLog().debug("producer controller [{}]: consumer controller {} stopped", producerId, c);
      consumer = null;
      timers.cancel(ResendFirst.TICK);
    }
  }

  private void onMessageFromProducer(A message, ActorRef<Long> replyTo) {
    requested = false;
    long seqNr = currentSeqNr++;
    boolean ack = replyTo != null || confirmationsTo != null;
    SequencedMessage<A> m = new SequencedMessage<>(producerId, seqNr, message, seqNr == firstSeqNr, ack, self);
    if (replyTo != null) {
      replyAfterConfirmation.put(seqNr, replyTo);
    }
    if (supportResend) {
      unconfirmed.addLast(m);
    }
    if (consumer != null) {
      consumer.tell(m);
      if (m.first() && awaitingFirstRequest) {
        startResendFirstTimer();
      }
    }
    requestNext();
  }

  private void onRequest(Request<?> r) {
    onConfirmed(r.confirmedSeqNr());
    if (awaitingFirstRequest) {
      awaitingFirstRequest = false;
      timers.cancel(ResendFirst.TICK);
    }
    supportResend = r.supportResend();
    if (!supportResend) {
      unconfirmed.clear();
    }
    requestedSeqNr = Math.max(requestedSeqNr, r.requestUpToSeqNr());
    if (r.viaTimeout()) {
      resendFrom(confirmedSeqNr + 1);
    }
    requestNext();
  }

  private void onConfirmed(long seqNr) {
    if (seqNr <= confirmedSeqNr) {
      return;
    }
    confirmedSeqNr = seqNr;
    while (!unconfirmed.isEmpty() && unconfirmed.peekFirst().seqNr() <= seqNr) {
      unconfirmed.pollFirst();
    }
    Map<Long, ActorRef<Long>> done = replyAfterConfirmation.headMap(seqNr, true);
    for (Map.Entry<Long, ActorRef<Long>> e : done.entrySet()) {
      e.getValue().tell(e.getKey());
    }
    done.clear();
    if (confirmationsTo != null) {
      confirmationsTo.tell(new Confirmed(producerId, seqNr));
    }
  }

  private void resendFrom(long fromSeqNr) {
    if (consumer == null) {
      return;
    }
    Iterator<SequencedMessage<A>> it = unconfirmed.iterator();
    while (it.hasNext()) {
      SequencedMessage<A> m = it.next();
      if (m.seqNr() >= fromSeqNr) {
        consumer.tell(m);
      }
    }
  }

  private void resendFirst() {
    if (consumer != null && awaitingFirstRequest && !unconfirmed.isEmpty()) {
      consumer.tell(unconfirmed.peekFirst().asFirst());
    } else if (!awaitingFirstRequest) {
      timers.cancel(ResendFirst.TICK);
    }
  }

  private void startResendFirstTimer() {
    timers.startTimerWithFixedDelay(ResendFirst.TICK, ResendFirst.TICK, settings.resendFirstInterval());
  }

  private void requestNext() {
    if (producer != null && consumer != null && !requested && currentSeqNr <= requestedSeqNr) {
      requested = true;
      producer.tell(new RequestNext<>(producerId, currentSeqNr, confirmedSeqNr, sendNextTo, self.narrow()));
    }
  }
}
