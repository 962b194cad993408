package dev.troupe.persistence;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.spi.CellSpi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A persistent actor that sends messages at least once: {@link #deliver} sends a message with a
 * delivery id and sends it again every {@link #redeliverInterval()} until the actor calls {@link
 * #confirmDelivery} with that id (typically when the destination's confirmation arrives).
 *
 * <pre>{@code
 * // commands and events: Send(text), Sent(text), Confirm(deliveryId), Confirmed(deliveryId);
 * // the destination gets Msg(deliveryId, text) and answers Confirm(deliveryId)
 * @Override public Receive createReceive() {
 *   return receiveBuilder()
 *       .match(Send.class, c -> persist(new Sent(c.text()), this::apply))
 *       .match(Confirm.class, c -> persist(new Confirmed(c.deliveryId()), this::apply))
 *       .build();
 * }
 * @Override public Receive createReceiveRecover() {
 *   return receiveBuilder().match(Sent.class, this::apply).match(Confirmed.class, this::apply).build();
 * }
 * private void apply(Sent e) { deliver(destination, id -> new Msg(id, e.text())); }
 * private void apply(Confirmed e) { confirmDelivery(e.deliveryId()); }
 * }</pre>
 *
 * <p>The delivery state is not stored by itself: the actor rebuilds it from its events, calling
 * {@code deliver} and {@code confirmDelivery} in its event handlers both when the events are
 * stored and while they are replayed. While the actor recovers, {@code deliver} only records the
 * delivery (with the same id as the first time: ids are 1, 2, 3, ... per actor, in the order of
 * the calls); once every event is replayed, before {@link RecoveryCompleted}, the deliveries still
 * unconfirmed are sent (at most {@link #redeliveryBurstLimit()}, the rest at the next ticks). After
 * recovery {@code deliver} sends at once.
 *
 * <p>Redelivery runs on the actor's thread, from a timer of its own that ticks twice per {@link
 * #redeliverInterval()} while deliveries are unconfirmed: each tick sends again the deliveries whose
 * last attempt is at least an interval old, the oldest attempts first, at most {@link
 * #redeliveryBurstLimit()} of them. A tick is handled when it arrives, also while a write is in
 * flight and commands wait in the stash; it is never stashed, never reaches the actor's behaviours
 * and leaves the order of commands and event handlers alone. Deliveries that went {@link
 * #warnAfterNumberOfUnconfirmedAttempts()} attempts without a confirmation are listed in an {@link
 * UnconfirmedWarning} the actor sends itself (a command like any other). The timer ends with the
 * incarnation: a restart recovers the deliveries from the events and starts again.
 *
 * <p>A message is sent with the actor as its sender, to {@code getContext().actorSelection(path)}:
 * to whatever actor has that path when it is sent, so a destination that restarts or is created
 * again under the same name still gets it. The destination may get a message more than once (and
 * out of order with later ones): it should handle duplicates, e.g. by remembering the ids it saw.
 *
 * <p>{@link #getDeliverySnapshot()} and {@link #setDeliverySnapshot} let the actor keep the
 * delivery state in its snapshots. {@link #maxUnconfirmedMessages()} bounds the unconfirmed
 * deliveries kept in memory: {@code deliver} throws {@link MaxUnconfirmedMessagesExceededException}
 * beyond it.
 *
 * <p>The defaults of the four settings come from {@code troupe.persistence.at-least-once-delivery};
 * override the methods for other values per actor class. All methods are for the actor's own
 * thread only.
 */
public abstract class AbstractPersistentActorWithAtLeastOnceDelivery extends AbstractPersistentActor {
  /** The redelivery timer's message, and its key. */
  enum RedeliveryTick implements NotInfluenceReceiveTimeout {
    INSTANCE
  }

  /** Unconfirmed deliveries by id, in the order of their last attempt: never sent first, then oldest first. */
  private final LinkedHashMap<Long, Delivery> unconfirmed = new LinkedHashMap<>();
  private long deliverySequenceNr; // the id of the last delivery made
  private boolean ticking; // the redelivery timer runs
  private Persistence persistence; // on first use

  /** Binds the instance to its cell. */
  protected AbstractPersistentActorWithAtLeastOnceDelivery() {}

  // =============================================================== settings

  /**
   * How long a delivery waits for its confirmation before it is sent again; read when the
   * redelivery timer starts and at each tick.
   *
   * @return {@code troupe.persistence.at-least-once-delivery.redeliver-interval} (5 s)
   */
  public Duration redeliverInterval() {
    return settings().redeliverInterval();
  }

  /**
   * The most deliveries sent again per redelivery tick (and when recovery completes).
   *
   * @return {@code troupe.persistence.at-least-once-delivery.redelivery-burst-limit} (10000)
   */
  public int redeliveryBurstLimit() {
    return settings().redeliveryBurstLimit();
  }

  /**
   * After how many attempts without a confirmation a delivery is listed in an {@link
   * UnconfirmedWarning}.
   *
   * @return {@code troupe.persistence.at-least-once-delivery.warn-after-number-of-unconfirmed-attempts} (5)
   */
  public int warnAfterNumberOfUnconfirmedAttempts() {
    return settings().warnAfterNumberOfUnconfirmedAttempts();
  }

  /**
   * The most unconfirmed deliveries the actor keeps; {@link #deliver} throws {@link
   * MaxUnconfirmedMessagesExceededException} beyond it.
   *
   * @return {@code troupe.persistence.at-least-once-delivery.max-unconfirmed-messages} (100000)
   */
  public int maxUnconfirmedMessages() {
    return settings().maxUnconfirmedMessages();
  }

  private Persistence settings() {
    Persistence p = persistence;
    if (p == null) {
      p = Persistence.get(getContext().getSystem());
      persistence = p;
    }
    return p;
  }

  // =============================================================== delivering and confirming

  /**
   * Sends a message with the next delivery id to {@code destination}, and again until the id is
   * confirmed; while the actor recovers, only records it (it is sent when recovery completes,
   * unless confirmed by then).
   *
   * @param destination where to send it
   * @param deliveryIdToMessage makes the message from its delivery id
   * @throws MaxUnconfirmedMessagesExceededException if {@link #numberOfUnconfirmed()} is already
   *     {@link #maxUnconfirmedMessages()}
   */
  public final void deliver(ActorPath destination, Function<Long, Object> deliveryIdToMessage) {
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(deliveryIdToMessage, "deliveryIdToMessage");
    int max = positive(maxUnconfirmedMessages(), "maxUnconfirmedMessages()");
    if (unconfirmed.size() >= max) {
      throw new MaxUnconfirmedMessagesExceededException("persistence id [" + persistenceId() + "] has " + unconfirmed.size()
          + " unconfirmed deliveries, the most it may keep (maxUnconfirmedMessages()): confirm some before delivering more");
    }
    long id = deliverySequenceNr + 1;
    Object message = Objects.requireNonNull(deliveryIdToMessage.apply(id), "the message deliveryIdToMessage made");
    deliverySequenceNr = id;
    Delivery d = new Delivery(destination, message);
    unconfirmed.put(id, d);
    if (!recoveryRunning()) {
      send(d, System.nanoTime());
      startTicking();
    }
  }

  /**
   * As {@link #deliver(ActorPath, Function)}, to the path a selection names.
   *
   * @param destination a selection without wildcards
   * @param deliveryIdToMessage makes the message from its delivery id
   * @throws IllegalArgumentException if the selection has wildcards (deliver to a mediator that
   *     fans the message out and confirms when all confirmed instead), or climbs above the root
   * @throws MaxUnconfirmedMessagesExceededException as {@link #deliver(ActorPath, Function)}
   */
  public final void deliver(ActorSelection destination, Function<Long, Object> deliveryIdToMessage) {
    deliver(pathOf(Objects.requireNonNull(destination, "destination")), deliveryIdToMessage);
  }

  private static ActorPath pathOf(ActorSelection selection) {
    String pattern = selection.pathString();
    if (pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0) {
      throw new IllegalArgumentException("cannot deliver to the wildcard selection " + selection
          + ": deliver to a mediator actor that sends to each and confirms once all confirmed");
    }
    ActorPath path = selection.anchor().path();
    for (String element : pattern.split("/")) {
      if (element.isEmpty()) {
        continue;
      }
      if (!element.equals("..")) {
        path = path.child(element);
      } else if (path.parent() != path) {
        path = path.parent();
      } else {
        throw new IllegalArgumentException("the selection " + selection + " climbs above the root");
      }
    }
    return path;
  }

  /**
   * Ends the redelivery of a delivery: call it (in an event handler, so that recovery confirms it
   * again) when its confirmation arrives.
   *
   * @param deliveryId the id {@code deliver} gave the message
   * @return whether the delivery was unconfirmed (false for an unknown or already confirmed id)
   */
  public final boolean confirmDelivery(long deliveryId) {
    return unconfirmed.remove(deliveryId) != null;
  }

  /** @return how many deliveries are not confirmed yet */
  public final int numberOfUnconfirmed() {
    return unconfirmed.size();
  }

  /**
   * The delivery state, for a snapshot: the last delivery id and the unconfirmed deliveries.
   *
   * @return the state now (an immutable copy)
   */
  public final AtLeastOnceDeliverySnapshot getDeliverySnapshot() {
    List<UnconfirmedDelivery> list = new ArrayList<>(unconfirmed.size());
    for (Map.Entry<Long, Delivery> e : unconfirmed.entrySet()) {
      list.add(new UnconfirmedDelivery(e.getKey(), e.getValue().destination, e.getValue().message));
    }
    list.sort(Comparator.comparingLong(UnconfirmedDelivery::deliveryId));
    return new AtLeastOnceDeliverySnapshot(deliverySequenceNr, list);
  }

  /**
   * Replaces the delivery state, typically with the one of a {@link SnapshotOffer} while the actor
   * recovers. Its deliveries count as never attempted: they are sent when recovery completes, or at
   * the next tick if the actor has recovered.
   *
   * @param snapshot the state to go on from
   */
  public final void setDeliverySnapshot(AtLeastOnceDeliverySnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    List<UnconfirmedDelivery> sorted = new ArrayList<>(snapshot.unconfirmedDeliveries());
    sorted.sort(Comparator.comparingLong(UnconfirmedDelivery::deliveryId));
    unconfirmed.clear();
    for (UnconfirmedDelivery u : sorted) {
      unconfirmed.put(u.deliveryId(), new Delivery(u.destination(), u.message()));
    }
    deliverySequenceNr = snapshot.currentDeliveryId();
    if (!recoveryRunning()) {
      startTicking();
    }
  }

  // =============================================================== redelivery

  @Override
  final boolean receiveInternal(Object message) {
    if (message != RedeliveryTick.INSTANCE) {
      return false;
    }
    if (!recoveryRunning()) { // a tick never comes while recovering: the timer starts after it
      if (unconfirmed.isEmpty()) {
        ((CellSpi) getContext()).timers().cancel(RedeliveryTick.INSTANCE);
        ticking = false;
      } else {
        redeliverOverdue();
      }
    }
    return true;
  }

  @Override
  final void onReplaySuccess() {
    redeliverOverdue();
    startTicking();
  }

  private void startTicking() {
    if (ticking || unconfirmed.isEmpty()) {
      return;
    }
    Duration interval = redeliverIntervalChecked();
    Duration tick = interval.dividedBy(2);
    ((CellSpi) getContext()).timers().startTimerWithFixedDelay(RedeliveryTick.INSTANCE, RedeliveryTick.INSTANCE,
        tick.isZero() ? interval : tick);
    ticking = true;
  }

  /**
   * Sends again the deliveries never sent or last sent at least an interval ago, the oldest attempts
   * first, at most the burst limit; warns once about each that reaches the warning's count.
   */
  private void redeliverOverdue() {
    if (unconfirmed.isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    long interval = redeliverIntervalChecked().toNanos();
    int limit = positive(redeliveryBurstLimit(), "redeliveryBurstLimit()");
    int warnAfter = positive(warnAfterNumberOfUnconfirmedAttempts(), "warnAfterNumberOfUnconfirmedAttempts()");
    List<Map.Entry<Long, Delivery>> due = new ArrayList<>();
    for (Iterator<Map.Entry<Long, Delivery>> it = unconfirmed.entrySet().iterator(); it.hasNext() && due.size() < limit; ) {
      Map.Entry<Long, Delivery> e = it.next();
      if (e.getValue().attempts > 0 && now - e.getValue().sentAt < interval) {
        break; // the rest were sent later still
      }
      due.add(e);
    }
    List<UnconfirmedDelivery> warnings = new ArrayList<>();
    for (Map.Entry<Long, Delivery> e : due) {
      Delivery d = e.getValue();
      if (d.attempts == warnAfter) {
        warnings.add(new UnconfirmedDelivery(e.getKey(), d.destination, d.message));
      }
      unconfirmed.remove(e.getKey()); // to the end: the most recent attempt
      unconfirmed.put(e.getKey(), d);
      send(d, now);
    }
    if (!warnings.isEmpty()) {
      getSelf().tell(new UnconfirmedWarning(warnings), getSelf());
    }
  }

  private void send(Delivery d, long now) {
    d.attempts++;
    d.sentAt = now;
    getContext().actorSelection(d.destination).tell(d.message, getSelf());
  }

  private Duration redeliverIntervalChecked() {
    Duration d = Objects.requireNonNull(redeliverInterval(), "redeliverInterval()");
    if (d.isNegative() || d.isZero()) {
      throw new IllegalStateException(getClass().getName() + ".redeliverInterval() must be positive, was " + d);
    }
    return d;
  }

  private int positive(int value, String method) {
    if (value < 1) {
      throw new IllegalStateException(getClass().getName() + "." + method + " must be at least 1, was " + value);
    }
    return value;
  }

  /** One unconfirmed delivery: what, where, and its attempts. */
  private static final class Delivery {
    final ActorPath destination;
    final Object message;
    int attempts; // 0: never sent (recorded while recovering, or restored from a snapshot)
    long sentAt; // System.nanoTime() of the last attempt

    Delivery(ActorPath destination, Object message) {
      this.destination = destination;
      this.message = message;
    }
  }
}
