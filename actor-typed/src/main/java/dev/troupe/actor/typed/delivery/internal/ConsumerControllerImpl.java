package dev.troupe.actor.typed.delivery.internal;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.Confirmed;
import dev.troupe.actor.typed.delivery.ConsumerController.Delivery;
import dev.troupe.actor.typed.delivery.ConsumerController.RegisterToProducerController;
import dev.troupe.actor.typed.delivery.ConsumerController.SequencedMessage;
import dev.troupe.actor.typed.delivery.ConsumerController.Start;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.TimerScheduler;
import java.time.Duration;
import java.util.ArrayDeque;

/**
 * The consumer controller: takes the producer controller's messages in order, hands them to the
 * consumer one at a time, grants demand as the consumer confirms, asks for what was lost and drops
 * duplicates. Its state is touched by its actor's thread only.
 *
 * @param <A> the producer's messages
 */
public final class ConsumerControllerImpl<A> {
  /** The timer's tick: ask again for what has not arrived (or register again). */
  private enum Retry { TICK }

  /** The consumer stopped: so does its controller. */
  private enum ConsumerTerminated { INSTANCE }

  private final ActorContext<Object> ctx;
  private final TimerScheduler<Object> timers;
  private final ConsumerController.Settings settings;
  private final ActorRef<Confirmed> confirmTo;
  private final ActorRef<ConsumerController.Command<A>> self;

  private ActorRef<Delivery<A>> deliverTo;
  /** The producer controller whose messages are taken, null before its first one. */
  private ActorRef<ProducerController.Command<A>> producer;
  /** The producer controller to register with until its first message arrives, or null. */
  private ActorRef<ProducerController.Command<A>> registering;
  private String producerId;
  /** The last message taken in order. */
  private long receivedSeqNr;
  /** The last message the consumer confirmed. */
  private long confirmedSeqNr;
  /** The highest sequence number granted to the producer controller. */
  private long requestedSeqNr;
  /** Whether a gap was seen and the messages after it were asked for again. */
  private boolean resending;
  /** Messages taken and not yet delivered, in order. */
  private final ArrayDeque<SequencedMessage<A>> buffer = new ArrayDeque<>();
  /** The message the consumer has and has not confirmed, or null. */
  private SequencedMessage<A> delivering;
  /** Whether anything arrived or was confirmed since the last retry tick. */
  private boolean progress;
  private Duration retryDelay;

  private ConsumerControllerImpl(ActorContext<Object> ctx, TimerScheduler<Object> timers, ConsumerController.Settings settings) {
    this.ctx = ctx;
    this.timers = timers;
    this.settings = settings;
    this.confirmTo = ctx.getSelf().unsafeUpcast();
    this.self = ctx.getSelf().unsafeUpcast();
    this.retryDelay = settings.resendIntervalMin();
    timers.startSingleTimer(Retry.TICK, Retry.TICK, retryDelay);
  }

  /**
   * @param settings the settings, or null for the system's
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<ConsumerController.Command<A>> create(ConsumerController.Settings settings) {
    Behavior<Object> b = Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ConsumerController.Settings s = settings != null ? settings : ConsumerController.Settings.create(ctx.getSystem());
      ConsumerControllerImpl<A> state = new ConsumerControllerImpl<>(ctx, timers, s);
      return Behaviors.receive((c, msg) -> state.onMessage(msg));
    }));
    return Typing.cast(b);
  }

  @SuppressWarnings("unchecked")
  private Behavior<Object> onMessage(Object msg) {
    if (msg instanceof SequencedMessage<?> m) {
      onSequenced((SequencedMessage<A>) m);
    } else if (msg instanceof Confirmed) {
      onConfirmed();
    } else if (msg == Retry.TICK) {
      onRetry();
    } else if (msg instanceof Start<?> s) {
      onStart((ActorRef<Delivery<A>>) (ActorRef<?>) s.deliverTo());
    } else if (msg instanceof RegisterToProducerController<?> r) {
      onRegister((ActorRef<ProducerController.Command<A>>) (ActorRef<?>) r.producerController());
    } else if (msg == ConsumerTerminated.INSTANCE) {
      ctx.getLog().debug("consumer controller: its consumer {} stopped, so does it", deliverTo);
      return Behaviors.stopped();
    } else {
      return Behaviors.unhandled();
    }
    return Behaviors.same();
  }

  private void onStart(ActorRef<Delivery<A>> d) {
    if (d.equals(deliverTo)) {
      return;
    }
    if (deliverTo != null) {
      ctx.unwatch(deliverTo);
    }
    deliverTo = d;
    ctx.watchWith(d, ConsumerTerminated.INSTANCE);
    if (delivering != null) {
      deliver(delivering); // the old consumer's delivery is the new one's
    } else {
      deliverNext();
    }
  }

  private void onRegister(ActorRef<ProducerController.Command<A>> p) {
    if (p.equals(producer)) {
      return;
    }
    registering = p;
    p.tell(new ProducerController.RegisterConsumer<>(self));
  }

  private void onSequenced(SequencedMessage<A> m) {
    if (!m.producerController().equals(producer)) {
      if (m.first()) {
        startWith(m);
      } else {
        // another producer controller's message that is not its first: its first one will come again
        ctx.getLog().debug("consumer controller: ignores message {} of producer [{}] before its first", m.seqNr(), m.producerId());
      }
      return;
    }
    if (m.seqNr() > requestedSeqNr) {
      // beyond the demand granted: a producer controller that keeps to the protocol never sends it,
      // and taking it would let a peer grow the buffer without bound
      ctx.getLog().warn("consumer controller: drops message {} of producer [{}], beyond the {} it asked for",
          m.seqNr(), m.producerId(), requestedSeqNr);
      return;
    }
    long expected = receivedSeqNr + 1;
    if (m.seqNr() == expected) {
      resending = false;
      take(m);
      if (m.first()) {
        request(false); // the producer controller waits for an answer to its first message
      }
    } else if (m.seqNr() < expected) {
      if (m.first()) {
        request(false); // the answer to the first message was lost
      }
    } else if (settings.onlyFlowControl()) {
      take(m); // the gap stays a gap
    } else if (!resending) {
      resending = true;
      producer.tell(new ProducerControllerImpl.Resend<>(expected));
    }
  }

  /** The first message of a producer controller: its messages are the ones taken from now on. */
  private void startWith(SequencedMessage<A> m) {
    if (producer != null) {
      ctx.getLog().info("consumer controller: producer [{}] {} replaces [{}] {}", m.producerId(), m.producerController(), producerId, producer);
      buffer.clear();
    }
    producer = m.producerController();
    producerId = m.producerId();
    registering = null;
    resending = false;
    receivedSeqNr = m.seqNr() - 1;
    confirmedSeqNr = m.seqNr() - 1;
    requestedSeqNr = 0; // the demand granted to another producer controller is not this one's
    take(m);
    request(false);
  }

  private void take(SequencedMessage<A> m) {
    receivedSeqNr = m.seqNr();
    progress = true;
    buffer.addLast(m);
    deliverNext();
  }

  private void deliverNext() {
    if (delivering == null && deliverTo != null && !buffer.isEmpty()) {
      delivering = buffer.pollFirst();
      deliver(delivering);
    }
  }

  private void deliver(SequencedMessage<A> m) {
    deliverTo.tell(new Delivery<>(m.message(), confirmTo, m.producerId(), m.seqNr()));
  }

  private void onConfirmed() {
    SequencedMessage<A> m = delivering;
    if (m == null) {
      return; // confirmed twice
    }
    delivering = null;
    progress = true;
    if (m.producerController().equals(producer)) {
      confirmedSeqNr = m.seqNr();
      if (requestedSeqNr - confirmedSeqNr <= settings.flowControlWindow() / 2) {
        request(false);
      } else if (m.ack()) {
        producer.tell(new ProducerControllerImpl.Ack<>(confirmedSeqNr));
      }
    }
    deliverNext();
  }

  /** Grants a window past the last confirmed message, telling what was confirmed. */
  private void request(boolean viaTimeout) {
    requestedSeqNr = Math.max(requestedSeqNr, confirmedSeqNr + settings.flowControlWindow());
    producer.tell(new ProducerControllerImpl.Request<>(confirmedSeqNr, requestedSeqNr, !settings.onlyFlowControl(), viaTimeout));
  }

  private void onRetry() {
    boolean asked = false;
    if (registering != null) {
      registering.tell(new ProducerController.RegisterConsumer<>(self));
      asked = true;
    } else if (!progress && producer != null && delivering == null && buffer.isEmpty()
        && (receivedSeqNr < requestedSeqNr || resending)) {
      request(true); // nothing arrived while demand is outstanding: tell again, and have the rest sent again
      asked = true;
    }
    progress = false;
    retryDelay = asked ? min(retryDelay.multipliedBy(2), settings.resendIntervalMax()) : settings.resendIntervalMin();
    timers.startSingleTimer(Retry.TICK, Retry.TICK, retryDelay);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
