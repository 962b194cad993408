package dev.troupe.actor.typed.delivery.internal;

import dev.troupe.actor.Done;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.GetWorkerStats;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.MessageWithConfirmation;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.RequestNext;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.Start;
import dev.troupe.actor.typed.delivery.WorkPullingProducerController.WorkerStats;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The work pulling controller: follows the workers listed under its key, runs a producer controller
 * for each (its child, which reports to it each {@link ProducerController.RequestNext} and each
 * advance of what its worker confirmed), hands each of the producer's messages to one worker with
 * demand, and gives the unconfirmed messages of a worker that went away to the others. Its state is
 * touched by its actor's thread only.
 *
 * @param <A> the producer's messages
 */
public final class WorkPullingProducerControllerImpl<A> {
  /** A message from the producer, through the {@code sendNextTo} adapter. */
  private record Msg<A>(A message) {}

  /** A worker's consumer controller this one watched stopped. */
  private record WorkerTerminated(ActorRef<?> worker) {}

  /** A message accepted from the producer and not yet confirmed by a worker. */
  private record Pending<A>(A message, ActorRef<Done> replyTo) {}

  /** One worker: the producer controller run for it, and what it holds. */
  private static final class Worker<A> {
    final String producerId;
    final ActorRef<ProducerController.Command<A>> producerController;
    /** The producer controller's request for its next message, null while it has none. */
    ProducerController.RequestNext<A> demand;
    /** The messages sent to it and not confirmed, by the producer controller's sequence number. */
    final TreeMap<Long, Pending<A>> unconfirmed = new TreeMap<>();

    Worker(String producerId, ActorRef<ProducerController.Command<A>> producerController) {
      this.producerId = producerId;
      this.producerController = producerController;
    }
  }

  private final ActorContext<Object> ctx;
  private final Class<A> messageClass;
  private final String producerId;
  private final ServiceKey<ConsumerController.Command<A>> key;
  private final WorkPullingProducerController.Settings settings;
  private final ActorRef<A> sendNextTo;
  private final ActorRef<WorkPullingProducerController.Command<A>> self;

  private ActorRef<RequestNext<A>> producer;
  /** Whether the producer holds a {@link RequestNext} it has not used yet. */
  private boolean requested;
  /** How many workers were taken on so far: the last one's number. */
  private long workerNumber;
  private final Map<ActorRef<?>, Worker<A>> workers = new LinkedHashMap<>();
  private final Map<String, Worker<A>> workersById = new HashMap<>();
  /** Messages waiting for a worker with demand, oldest first. */
  private final ArrayDeque<Pending<A>> buffer = new ArrayDeque<>();

  private WorkPullingProducerControllerImpl(
      ActorContext<Object> ctx, Class<A> messageClass, String producerId, ServiceKey<ConsumerController.Command<A>> key,
      WorkPullingProducerController.Settings settings) {
    this.ctx = ctx;
    this.messageClass = messageClass;
    this.producerId = producerId;
    this.key = key;
    this.settings = settings;
    this.sendNextTo = ctx.messageAdapter(messageClass, Msg::new);
    this.self = ctx.getSelf().unsafeUpcast();
    ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, ctx.getSelf().unsafeUpcast()));
  }

  /**
   * @param messageClass the producer's messages
   * @param producerId the producer's id
   * @param key the key the workers' consumer controllers register under
   * @param settings the settings, or null for the system's
   * @param <A> the producer's messages
   * @return the controller's behaviour
   */
  public static <A> Behavior<WorkPullingProducerController.Command<A>> create(
      Class<A> messageClass, String producerId, ServiceKey<ConsumerController.Command<A>> key,
      WorkPullingProducerController.Settings settings) {
    Behavior<Object> b = Behaviors.setup(ctx -> {
      WorkPullingProducerController.Settings s =
          settings != null ? settings : WorkPullingProducerController.Settings.create(ctx.getSystem());
      WorkPullingProducerControllerImpl<A> state = new WorkPullingProducerControllerImpl<>(ctx, messageClass, producerId, key, s);
      return Behaviors.receive((c, msg) -> state.onMessage(msg));
    });
    return Typing.cast(b);
  }

  @SuppressWarnings("unchecked")
  private Behavior<Object> onMessage(Object msg) {
    if (msg instanceof Msg<?> m) {
      onMessageFromProducer(new Pending<>((A) m.message(), null));
    } else if (msg instanceof ProducerController.RequestNext<?> r) {
      onWorkerDemand((ProducerController.RequestNext<A>) r);
    } else if (msg instanceof ProducerControllerImpl.Confirmed c) {
      onWorkerConfirmed(c);
    } else if (msg instanceof MessageWithConfirmation<?> m) {
      onMessageFromProducer(new Pending<>((A) m.message(), m.replyTo()));
    } else if (msg instanceof Receptionist.Listing l) {
      onListing(l);
    } else if (msg instanceof WorkerTerminated t) {
      removeWorker(t.worker(), "stopped");
    } else if (msg instanceof Start<?> s) {
      onStart((ActorRef<RequestNext<A>>) (ActorRef<?>) s.producer());
    } else if (msg instanceof GetWorkerStats<?> g) {
      g.replyTo().tell(new WorkerStats(workers.size()));
    } else {
      return Behaviors.unhandled();
    }
    return Behaviors.same();
  }

  private void onStart(ActorRef<RequestNext<A>> p) {
    if (producer != null && !producer.equals(p)) {
      requested = false; // the old producer's request is void: the new one gets its own
    }
    producer = p;
    requestNext();
  }

  private void onMessageFromProducer(Pending<A> m) {
    requested = false;
    if (buffer.size() >= settings.bufferSize()) {
      // only a producer that sends without a RequestNext gets here
      ctx.getLog().warn("work pulling controller [{}]: drops a message, {} wait for a worker with demand (buffer-size)",
          producerId, buffer.size());
    } else {
      buffer.addLast(m);
    }
    dispatch();
  }

  private void onWorkerDemand(ProducerController.RequestNext<A> r) {
    Worker<A> w = workersById.get(r.producerId());
    if (w != null) { // else a worker already gone
      w.demand = r;
      dispatch();
    }
  }

  private void onWorkerConfirmed(ProducerControllerImpl.Confirmed c) {
    Worker<A> w = workersById.get(c.producerId());
    if (w == null) {
      return;
    }
    Map<Long, Pending<A>> done = w.unconfirmed.headMap(c.confirmedSeqNr(), true);
    for (Pending<A> p : done.values()) {
      if (p.replyTo() != null) {
        p.replyTo().tell(Done.getInstance());
      }
    }
    done.clear();
  }

  private void onListing(Receptionist.Listing l) {
    if (!l.isForKey(key)) {
      return;
    }
    Set<ActorRef<ConsumerController.Command<A>>> listed = l.getServiceInstances(key);
    for (ActorRef<?> gone : new ArrayList<>(workers.keySet())) {
      if (!listed.contains(gone)) {
        removeWorker(gone, "left the listing");
      }
    }
    for (ActorRef<ConsumerController.Command<A>> c : listed) {
      if (!workers.containsKey(c)) {
        addWorker(c);
      }
    }
  }

  private void addWorker(ActorRef<ConsumerController.Command<A>> c) {
    long n = ++workerNumber;
    String id = producerId + "-" + n;
    ActorRef<ProducerController.Command<A>> pc = ctx.spawn(
        ProducerControllerImpl.create(messageClass, id, settings.producerControllerSettings(), ctx.getSelf()), "worker-" + n);
    Worker<A> w = new Worker<>(id, pc);
    workers.put(c, w);
    workersById.put(id, w);
    ctx.watchWith(c, new WorkerTerminated(c));
    ctx.getLog().debug("work pulling controller [{}]: worker {} joins as [{}]", producerId, c, id);
    pc.tell(new ProducerController.Start<>(ctx.getSelf().unsafeUpcast()));
    pc.tell(new ProducerController.RegisterConsumer<>(c));
  }

  private void removeWorker(ActorRef<?> c, String why) {
    Worker<A> w = workers.remove(c);
    if (w == null) {
      return;
    }
    workersById.remove(w.producerId);
    ctx.unwatch(c);
    ctx.stop(w.producerController);
    ctx.getLog().debug("work pulling controller [{}]: worker [{}] {} {}, {} unconfirmed message(s) go to others",
        producerId, w.producerId, c, why, w.unconfirmed.size());
    List<Pending<A>> again = new ArrayList<>(w.unconfirmed.values());
    for (int i = again.size() - 1; i >= 0; i--) {
      buffer.addFirst(again.get(i)); // before the producer's newer messages
    }
    dispatch();
  }

  /** Hands the waiting messages to workers with demand, then asks the producer when demand is left. */
  private void dispatch() {
    while (!buffer.isEmpty()) {
      Worker<A> w = workerWithDemand();
      if (w == null) {
        break;
      }
      send(w, buffer.pollFirst());
    }
    requestNext();
  }

  private Worker<A> workerWithDemand() {
    List<Worker<A>> ready = new ArrayList<>();
    for (Worker<A> w : workers.values()) {
      if (w.demand != null) {
        ready.add(w);
      }
    }
    return ready.isEmpty() ? null : ready.get(ThreadLocalRandom.current().nextInt(ready.size()));
  }

  private boolean anyDemand() {
    for (Worker<A> w : workers.values()) {
      if (w.demand != null) {
        return true;
      }
    }
    return false;
  }

  private void send(Worker<A> w, Pending<A> m) {
    ProducerController.RequestNext<A> r = w.demand;
    w.demand = null;
    w.unconfirmed.put(r.currentSeqNr(), m);
    r.sendNextTo().tell(m.message());
  }

  private void requestNext() {
    if (producer != null && !requested && buffer.isEmpty() && anyDemand()) {
      requested = true;
      producer.tell(new RequestNext<>(sendNextTo, self.narrow()));
    }
  }
}
