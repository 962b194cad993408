package dev.troupe.actor.typed.delivery;

import com.typesafe.config.Config;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.internal.ProducerControllerImpl;
import dev.troupe.actor.typed.delivery.internal.SettingsReader;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The producer's side of point-to-point reliable delivery, used with a {@link ConsumerController}.
 *
 * <p>The producer sends {@link Start} with the ref that gets a {@link RequestNext} each time it may
 * send one more message (usually a message adapter); it sends that message to {@link
 * RequestNext#sendNextTo()}, or a {@link MessageWithConfirmation} to {@link
 * RequestNext#askNextTo()} to be told the message's sequence number once the consumer confirmed
 * it. The controller finds its consumer controller through {@link RegisterConsumer} (or the
 * consumer controller's {@link ConsumerController.RegisterToProducerController}).
 *
 * <p>The controller numbers the messages from 1 and sends them as {@link
 * ConsumerController.SequencedMessage}s; it asks the producer for more only within the demand the
 * consumer controller granted (its {@code flow-control-window}), keeps every unconfirmed message,
 * and sends them again when the consumer controller reports a gap or a silence, or when a new
 * consumer controller registers; it watches its consumer controller and, when that one stops, keeps
 * the unconfirmed messages for the next. Delivery is at least once across consumer controllers,
 * and exactly once and in order to one of them. The
 * producer and its controller are meant to run in one system, as are the consumer and its
 * controller; the two controllers may run on different nodes. The unconfirmed messages live in
 * the controller's memory only (no durable queue).
 */
public final class ProducerController {
  private ProducerController() {}

  /** The configuration section of these settings. */
  public static final String CONFIG_PATH = "troupe.reliable-delivery.producer-controller";

  /**
   * What a producer controller accepts.
   *
   * @param <A> the producer's messages
   */
  public interface Command<A> {}

  /**
   * Starts the flow, or hands it to another producer (which gets the next {@link RequestNext}).
   *
   * @param producer gets a {@link RequestNext} each time it may send one more message
   * @param <A> the producer's messages
   */
  public record Start<A>(ActorRef<RequestNext<A>> producer) implements Command<A> {
    /** @param producer gets the {@link RequestNext}s */
    public Start {
      Objects.requireNonNull(producer, "producer");
    }
  }

  /**
   * Connects the controller to a consumer controller, which it watches. A consumer controller other
   * than the current one replaces it and gets the unconfirmed messages again.
   *
   * @param consumerController the consumer controller
   * @param <A> the producer's messages
   */
  public record RegisterConsumer<A>(ActorRef<ConsumerController.Command<A>> consumerController) implements Command<A> {
    /** @param consumerController the consumer controller */
    public RegisterConsumer {
      Objects.requireNonNull(consumerController, "consumerController");
    }
  }

  /**
   * Tells the producer that it may send one more message: to {@code sendNextTo}, or wrapped in a
   * {@link MessageWithConfirmation} to {@code askNextTo}.
   *
   * @param producerId the controller's producer id
   * @param currentSeqNr the sequence number the next message will get
   * @param confirmedSeqNr the highest sequence number the consumer confirmed so far
   * @param sendNextTo where to send the next message
   * @param askNextTo where to send the next message to be told when it is confirmed
   * @param <A> the producer's messages
   */
  public record RequestNext<A>(
      String producerId,
      long currentSeqNr,
      long confirmedSeqNr,
      ActorRef<A> sendNextTo,
      ActorRef<MessageWithConfirmation<A>> askNextTo) {}

  /**
   * A message whose sender is told its sequence number once the consumer confirmed it.
   *
   * @param message the message
   * @param replyTo gets the message's sequence number when the consumer confirmed it
   * @param <A> the producer's messages
   */
  public record MessageWithConfirmation<A>(A message, ActorRef<Long> replyTo) implements Command<A> {
    /**
     * @param message the message
     * @param replyTo gets the sequence number
     */
    public MessageWithConfirmation {
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * A producer controller with the system's settings ({@value #CONFIG_PATH}).
   *
   * @param messageClass the producer's messages
   * @param producerId names the producer in the messages it sends; not blank
   * @param durableQueueBehavior must be empty: a durable producer queue is not supported
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create(
      Class<A> messageClass, String producerId, Optional<? extends Behavior<?>> durableQueueBehavior) {
    checkArguments(messageClass, producerId, durableQueueBehavior);
    return ProducerControllerImpl.create(messageClass, producerId, null);
  }

  /**
   * A producer controller with the given settings.
   *
   * @param messageClass the producer's messages
   * @param producerId names the producer in the messages it sends; not blank
   * @param durableQueueBehavior must be empty: a durable producer queue is not supported
   * @param settings the controller's settings
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create(
      Class<A> messageClass,
      String producerId,
      Optional<? extends Behavior<?>> durableQueueBehavior,
      Settings settings) {
    checkArguments(messageClass, producerId, durableQueueBehavior);
    return ProducerControllerImpl.create(messageClass, producerId, Objects.requireNonNull(settings, "settings"));
  }

  /** The checks of {@code create}, shared with {@link WorkPullingProducerController}. */
  static void checkArguments(Class<?> messageClass, String producerId, Optional<?> durableQueueBehavior) {
    Objects.requireNonNull(messageClass, "messageClass");
    Objects.requireNonNull(producerId, "producerId");
    Objects.requireNonNull(durableQueueBehavior, "durableQueueBehavior");
    if (producerId.isBlank()) {
      throw new IllegalArgumentException("a producer id must not be blank");
    }
    if (durableQueueBehavior.isPresent()) {
      throw new IllegalArgumentException(
          "a durable producer queue is not supported: pass Optional.empty() (the unconfirmed messages are kept in memory)");
    }
  }

  /**
   * A producer controller's settings ({@value #CONFIG_PATH}). Immutable; the {@code with…} methods
   * return copies.
   */
  public static final class Settings {
    private final Duration resendFirstInterval;

    private Settings(Duration resendFirstInterval) {
      this.resendFirstInterval = resendFirstInterval;
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
      return read(new SettingsReader(config, CONFIG_PATH));
    }

    /**
     * @param r a reader of a section that holds these keys (also the work pulling controller's)
     * @return the settings it holds
     */
    static Settings read(SettingsReader r) {
      return new Settings(r.positiveDuration("resend-first-interval"));
    }

    /**
     * @return how often the first message to a consumer controller is sent again until that
     *     controller answers ({@code resend-first-interval})
     */
    public Duration resendFirstInterval() {
      return resendFirstInterval;
    }

    /**
     * @param interval how often to send the first message again, greater than zero
     * @return a copy with that interval
     */
    public Settings withResendFirstInterval(Duration interval) {
      return new Settings(SettingsReader.requirePositive("resend-first-interval", interval));
    }

    @Override
    public String toString() {
      return "ProducerController.Settings(resendFirstInterval=" + resendFirstInterval + ")";
    }
  }
}
