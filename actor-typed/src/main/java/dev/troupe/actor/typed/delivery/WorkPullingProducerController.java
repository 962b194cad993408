package dev.troupe.actor.typed.delivery;

import com.typesafe.config.Config;
import dev.troupe.actor.Done;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.internal.SettingsReader;
import dev.troupe.actor.typed.delivery.internal.WorkPullingProducerControllerImpl;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Work pulling: one producer's messages shared out among the workers registered under a {@link
 * ServiceKey}, each taking work at its own pace. A worker is a consumer with its {@link
 * ConsumerController}, registered with the receptionist under the key; workers may come and go,
 * on any node.
 *
 * <p>The controller subscribes to the key and, for each worker, runs a {@link ProducerController}
 * of its own (its producer id is this one's with {@code -1}, {@code -2}… after it) connected to that
 * worker's consumer controller: between the two, delivery is point to point, with its flow control.
 * The producer sends {@link Start}, then gets a {@link RequestNext} each time some worker has demand,
 * and sends one message to {@link RequestNext#sendNextTo()} (or a {@link MessageWithConfirmation}
 * to {@link RequestNext#askNextTo()}, answered with {@link Done} once the worker confirmed it). Each
 * message goes to one worker with demand, picked at random: the order of the messages does not
 * hold across workers.
 *
 * <p>When a worker goes away (the listing drops its consumer controller, or that controller stops),
 * the messages it had not confirmed go to other workers: delivery is at least once, and a message
 * may be processed twice. While no worker has demand the producer is not asked; the messages that
 * wait (a gone worker's unconfirmed ones, or one sent without a {@link RequestNext}) are kept, and
 * a message the producer sends while {@code buffer-size} of them wait is dropped with a warning (a
 * gone worker's are always kept). Everything lives in memory (no durable queue).
 */
public final class WorkPullingProducerController {
  private WorkPullingProducerController() {}

  /** The configuration section of these settings. */
  public static final String CONFIG_PATH = "troupe.reliable-delivery.work-pulling.producer-controller";

  /**
   * What a work pulling producer controller accepts.
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
   * Tells the producer that it may send one more message: to {@code sendNextTo}, or wrapped in a
   * {@link MessageWithConfirmation} to {@code askNextTo}.
   *
   * @param sendNextTo where to send the next message
   * @param askNextTo where to send the next message to be told when a worker confirmed it
   * @param <A> the producer's messages
   */
  public record RequestNext<A>(ActorRef<A> sendNextTo, ActorRef<MessageWithConfirmation<A>> askNextTo) {}

  /**
   * A message whose sender is told {@link Done} once the worker that got it confirmed it.
   *
   * @param message the message
   * @param replyTo gets {@link Done} when a worker confirmed the message
   * @param <A> the producer's messages
   */
  public record MessageWithConfirmation<A>(A message, ActorRef<Done> replyTo) implements Command<A> {
    /**
     * @param message the message
     * @param replyTo gets {@link Done}
     */
    public MessageWithConfirmation {
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * Asks how many workers the controller has now.
   *
   * @param replyTo gets the {@link WorkerStats}
   * @param <A> the producer's messages
   */
  public record GetWorkerStats<A>(ActorRef<WorkerStats> replyTo) implements Command<A> {
    /** @param replyTo gets the stats */
    public GetWorkerStats {
      Objects.requireNonNull(replyTo, "replyTo");
    }
  }

  /**
   * The answer to {@link GetWorkerStats}.
   *
   * @param numberOfWorkers the workers (consumer controllers under the key) the controller has now
   */
  public record WorkerStats(int numberOfWorkers) {}

  /**
   * A work pulling controller with the system's settings ({@value #CONFIG_PATH}).
   *
   * @param messageClass the producer's messages
   * @param producerId names the producer; not blank
   * @param workerServiceKey the key the workers' consumer controllers register under
   * @param durableQueueBehavior must be empty: a durable producer queue is not supported
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create(
      Class<A> messageClass,
      String producerId,
      ServiceKey<ConsumerController.Command<A>> workerServiceKey,
      Optional<? extends Behavior<?>> durableQueueBehavior) {
    ProducerController.checkArguments(messageClass, producerId, durableQueueBehavior);
    return WorkPullingProducerControllerImpl.create(
        messageClass, producerId, Objects.requireNonNull(workerServiceKey, "workerServiceKey"), null);
  }

  /**
   * A work pulling controller with the given settings.
   *
   * @param messageClass the producer's messages
   * @param producerId names the producer; not blank
   * @param workerServiceKey the key the workers' consumer controllers register under
   * @param durableQueueBehavior must be empty: a durable producer queue is not supported
   * @param settings the controller's settings
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<Command<A>> create(
      Class<A> messageClass,
      String producerId,
      ServiceKey<ConsumerController.Command<A>> workerServiceKey,
      Optional<? extends Behavior<?>> durableQueueBehavior,
      Settings settings) {
    ProducerController.checkArguments(messageClass, producerId, durableQueueBehavior);
    return WorkPullingProducerControllerImpl.create(
        messageClass,
        producerId,
        Objects.requireNonNull(workerServiceKey, "workerServiceKey"),
        Objects.requireNonNull(settings, "settings"));
  }

  /**
   * A work pulling controller's settings ({@value #CONFIG_PATH}): its own, and those of the producer
   * controllers it runs for its workers. Immutable; the {@code with…} methods return copies.
   */
  public static final class Settings {
    private final int bufferSize;
    private final ProducerController.Settings producerControllerSettings;

    private Settings(int bufferSize, ProducerController.Settings producerControllerSettings) {
      this.bufferSize = bufferSize;
      this.producerControllerSettings = producerControllerSettings;
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
     * @param config the section {@value #CONFIG_PATH} of a configuration (which holds the producer
     *     controller's keys too)
     * @return the settings it holds
     * @throws dev.troupe.actor.ConfigurationException if a value is malformed, naming its key
     */
    public static Settings create(Config config) {
      SettingsReader r = new SettingsReader(config, CONFIG_PATH);
      return new Settings(r.intAtLeast("buffer-size", 1), ProducerController.Settings.read(r));
    }

    /**
     * @return how many messages may wait for a worker with demand before the producer's next one
     *     is dropped ({@code buffer-size})
     */
    public int bufferSize() {
      return bufferSize;
    }

    /** @return the settings of the producer controller run for each worker */
    public ProducerController.Settings producerControllerSettings() {
      return producerControllerSettings;
    }

    /**
     * @param bufferSize at least 1
     * @return a copy with that buffer size
     */
    public Settings withBufferSize(int bufferSize) {
      if (bufferSize < 1) {
        throw new IllegalArgumentException("buffer-size must be at least 1, was " + bufferSize);
      }
      return new Settings(bufferSize, producerControllerSettings);
    }

    /**
     * @param settings the settings of the producer controller run for each worker
     * @return a copy with those
     */
    public Settings withProducerControllerSettings(ProducerController.Settings settings) {
      return new Settings(bufferSize, Objects.requireNonNull(settings, "settings"));
    }

    @Override
    public String toString() {
      return "WorkPullingProducerController.Settings(bufferSize=" + bufferSize + ", producerControllerSettings="
          + producerControllerSettings + ")";
    }
  }
}
