package dev.troupe.actor.typed.delivery;

import com.typesafe.config.Config;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.internal.ConsumerControllerImpl;
import dev.troupe.actor.typed.delivery.internal.SettingsReader;
import java.time.Duration;
import java.util.Objects;

/**
 * The consumer's side of point-to-point reliable delivery, used with a {@link ProducerController}.
 *
 * <p>The consumer sends {@link Start} with the ref that gets each message as a {@link Delivery}
 * (usually a message adapter), and answers each delivery with {@link #confirmed()} to its {@link
 * Delivery#confirmTo()}: the next message is delivered only after that. The controller grants the
 * producer controller demand ({@code flow-control-window} messages ahead of the last confirmed one,
 * asked for again when half of it is used), asks for the messages again when it sees a gap in the
 * sequence numbers or nothing arrives while demand is outstanding (after {@code
 * resend-interval-min}, backing off to {@code resend-interval-max}), and drops duplicates.
 *
 * <p>It is connected to its producer controller by {@link RegisterToProducerController} or by the
 * producer controller's {@link ProducerController.RegisterConsumer}; it follows a new producer
 * controller when that one sends its first message. It stops when the consumer it delivers to
 * stops.
 */
public final class ConsumerController {
  private ConsumerController() {}

  /** The configuration section of these settings. */
  public static final String CONFIG_PATH = "troupe.reliable-delivery.consumer-controller";

  /**
   * What a consumer controller accepts.
   *
   * @param <A> the producer's messages
   */
  public interface Command<A> {}

  /**
   * Starts the deliveries, or hands them to another consumer.
   *
   * @param deliverTo gets each message as a {@link Delivery}
   * @param <A> the producer's messages
   */
  public record Start<A>(ActorRef<Delivery<A>> deliverTo) implements Command<A> {
    /** @param deliverTo gets the deliveries */
    public Start {
      Objects.requireNonNull(deliverTo, "deliverTo");
    }
  }

  /**
   * One message for the consumer, which answers {@link #confirmed()} to {@code confirmTo} when it has
   * handled it.
   *
   * @param message the producer's message
   * @param confirmTo where to send {@link #confirmed()}
   * @param producerId the producer's id
   * @param seqNr the message's sequence number
   * @param <A> the producer's messages
   */
  public record Delivery<A>(A message, ActorRef<Confirmed> confirmTo, String producerId, long seqNr) {}

  /** The consumer's answer to a {@link Delivery}: {@link #confirmed()}. */
  public static final class Confirmed {
    static final Confirmed INSTANCE = new Confirmed();

    private Confirmed() {}

    @Override
    public String toString() {
      return "Confirmed";
    }
  }

  /** @return the consumer's answer to a {@link Delivery} */
  public static Confirmed confirmed() {
    return Confirmed.INSTANCE;
  }

  /**
   * Connects the controller to a producer controller: it registers with it until that controller
   * sends its first message.
   *
   * @param producerController the producer controller
   * @param <A> the producer's messages
   */
  public record RegisterToProducerController<A>(ActorRef<ProducerController.Command<A>> producerController)
      implements Command<A> {
    /** @param producerController the producer controller */
    public RegisterToProducerController {
      Objects.requireNonNull(producerController, "producerController");
    }
  }

  /**
   * A message as the producer controller sends it to the consumer controller (the one message of the
   * protocol that travels between the two; it may cross nodes).
   *
   * @param producerId the producer's id
   * @param seqNr the message's sequence number, from 1
   * @param message the producer's message
   * @param first whether it is the first message the producer controller sends this consumer
   *     controller (it is sent again until the consumer controller answers)
   * @param ack whether the producer controller wants to hear at once when it is confirmed
   * @param producerController the producer controller, where the answers go
   * @param <A> the producer's messages
   */
  public record SequencedMessage<A>(
      String producerId,
      long seqNr,
      A message,
      boolean first,
      boolean ack,
      ActorRef<ProducerController.Command<A>> producerController)
      implements Command<A> {
    /**
     * @param producerId the producer's id
     * @param seqNr the sequence number
     * @param message the message
     * @param first whether it is the first message to this consumer controller
     * @param ack whether a confirmation is wanted at once
     * @param producerController the producer controller
     */
    public SequencedMessage {
      Objects.requireNonNull(producerId, "producerId");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(producerController, "producerController");
    }

    /** @return this message marked as the first one */
    public SequencedMessage<A> asFirst() {
      return first ? this : new SequencedMessage<>(producerId, seqNr, message, true, ack, producerController);
    }
  }

  /**
   * The class of {@link Command} with its type argument, for the {@link
   * dev.troupe.actor.typed.receptionist.ServiceKey} workers register under for work pulling: {@code
   * ServiceKey.create(ConsumerController.serviceKeyClass(), "workers")}.
   *
   * @param <A> the producer's messages
   * @return {@code Command.class}
   */
  @SuppressWarnings("unchecked")
  public static <A> Class<Command<A>> serviceKeyClass() {
    return (Class<Command<A>>) (Class<?>) Command.class;
  }

  /**
   * A consumer controller with the system's settings ({@value #CONFIG_PATH}).
   *
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create() {
    return ConsumerControllerImpl.create(null);
  }

  /**
   * A consumer controller with the given settings.
   *
   * @param settings the controller's settings
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create(Settings settings) {
    return ConsumerControllerImpl.create(Objects.requireNonNull(settings, "settings"));
  }

  /**
   * A consumer controller's settings ({@value #CONFIG_PATH}). Immutable; the {@code with…} methods
   * return copies.
   */
  public static final class Settings {
    private final int flowControlWindow;
    private final Duration resendIntervalMin;
    private final Duration resendIntervalMax;
    private final boolean onlyFlowControl;

    private Settings(int flowControlWindow, Duration resendIntervalMin, Duration resendIntervalMax, boolean onlyFlowControl) {
      if (resendIntervalMax.compareTo(resendIntervalMin) < 0) {
        throw new IllegalArgumentException(
            "resend-interval-max (" + resendIntervalMax + ") must be at least resend-interval-min (" + resendIntervalMin + ")");
      }
      this.flowControlWindow = flowControlWindow;
      this.resendIntervalMin = resendIntervalMin;
      this.resendIntervalMax = resendIntervalMax;
      this.onlyFlowControl = onlyFlowControl;
    }

    /**
     * @param system a typed actor system
     * @return the settings in its configuration
     * @throws dev.troupe.actor.ConfigurationException if a value is malformed, naming its key
     */
    public static Settings create(ActorSystem<?> system) {
      return create(Objects.requireNonNull(system, "system").settings().config().getConfig(CONFIG_PATH));
    }

    /**
     * @param config the section {@value #CONFIG_PATH} of a configuration
     * @return the settings it holds
     * @throws dev.troupe.actor.ConfigurationException if a value is malformed, naming its key
     */
    public static Settings create(Config config) {
      SettingsReader r = new SettingsReader(config, CONFIG_PATH);
      int window = r.intAtLeast("flow-control-window", 1);
      Duration min = r.positiveDuration("resend-interval-min");
      Duration max = r.positiveDuration("resend-interval-max");
      r.ordered("resend-interval-min", min, "resend-interval-max", max);
      return new Settings(window, min, max, r.bool("only-flow-control"));
    }

    /** @return how many messages past the last confirmed one the producer may send ({@code flow-control-window}) */
    public int flowControlWindow() {
      return flowControlWindow;
    }

    /** @return how long to wait for a lost message before asking for it again, at first ({@code resend-interval-min}) */
    public Duration resendIntervalMin() {
      return resendIntervalMin;
    }

    /** @return the longest wait between two such requests, after backing off ({@code resend-interval-max}) */
    public Duration resendIntervalMax() {
      return resendIntervalMax;
    }

    /**
     * @return whether lost messages are left lost (only the flow control remains, and gaps are
     *     delivered over; {@code only-flow-control})
     */
    public boolean onlyFlowControl() {
      return onlyFlowControl;
    }

    /**
     * @param window at least 1
     * @return a copy with that window
     */
    public Settings withFlowControlWindow(int window) {
      if (window < 1) {
        throw new IllegalArgumentException("flow-control-window must be at least 1, was " + window);
      }
      return new Settings(window, resendIntervalMin, resendIntervalMax, onlyFlowControl);
    }

    /**
     * @param interval greater than zero, at most {@link #resendIntervalMax()}
     * @return a copy with that interval
     */
    public Settings withResendIntervalMin(Duration interval) {
      return new Settings(flowControlWindow, SettingsReader.requirePositive("resend-interval-min", interval), resendIntervalMax, onlyFlowControl);
    }

    /**
     * @param interval greater than zero, at least {@link #resendIntervalMin()}
     * @return a copy with that interval
     */
    public Settings withResendIntervalMax(Duration interval) {
      return new Settings(flowControlWindow, resendIntervalMin, SettingsReader.requirePositive("resend-interval-max", interval), onlyFlowControl);
    }

    /**
     * @param onlyFlowControl whether lost messages are left lost
     * @return a copy with that choice
     */
    public Settings withOnlyFlowControl(boolean onlyFlowControl) {
      return new Settings(flowControlWindow, resendIntervalMin, resendIntervalMax, onlyFlowControl);
    }

    @Override
    public String toString() {
      return "ConsumerController.Settings(flowControlWindow=" + flowControlWindow + ", resendIntervalMin=" + resendIntervalMin
          + ", resendIntervalMax=" + resendIntervalMax + ", onlyFlowControl=" + onlyFlowControl + ")";
    }
  }
}
