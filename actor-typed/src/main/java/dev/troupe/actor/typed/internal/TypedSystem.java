package dev.troupe.actor.typed.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.actor.spi.SystemSpi;
import dev.troupe.actor.typed.eventstream.EventStream;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ReceptionistFactory;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The typed view of a classic system: one per classic system (so that its receptionist is one),
 * made by {@link ActorSystem#create} with a guardian, or on demand for a classic system without one
 * ({@code Adapter.toTyped(system)}, {@code getContext().getSystem()}), whose {@code tell} then goes to
 * dead letters. Forgotten when the classic system terminates.
 *
 * @param <T> what the guardian accepts
 */
public final class TypedSystem<T> extends ActorSystem<T> implements ActorRefAdapter.ClassicBacked {
  /** The name of the guardian, a top-level actor of the classic system. */
  public static final String GUARDIAN_NAME = "guardian";

  /** The name of the receptionist, a top-level actor of the classic system. */
  public static final String RECEPTIONIST_NAME = "typed-receptionist";

  private static final Map<dev.troupe.actor.ActorSystem, TypedSystem<?>> SYSTEMS = new ConcurrentHashMap<>();
  private static final Logger LOG = LoggerFactory.getLogger(ActorSystem.class);

  private final dev.troupe.actor.ActorSystem classic;
  private volatile dev.troupe.actor.ActorRef guardian;
  private volatile ActorRef<Receptionist.Command> receptionist;
  private final ActorRef<EventStream.Command> eventStream;
  private final ActorRef<Object> ignore;

  private TypedSystem(dev.troupe.actor.ActorSystem classic) {
    this.classic = classic;
    this.eventStream = new ActorRefAdapter<>(new EventStreamRef(classic));
    this.ignore = new ActorRefAdapter<>(new IgnoreRef(classic));
  }

  /**
   * Starts the guardian of a new classic system.
   *
   * @param classic the system, just created
   * @param guardianBehavior the guardian's behaviour
   * @param <T> what it accepts
   * @return the typed system
   */
  @SuppressWarnings("unchecked")
  public static <T> ActorSystem<T> start(dev.troupe.actor.ActorSystem classic, Behavior<T> guardianBehavior) {
    TypedSystem<T> s = (TypedSystem<T>) of(classic);
    try {
      s.guardian = classic.actorOf(TypedActor.props(guardianBehavior, null, true, Props.empty()), GUARDIAN_NAME);
    } catch (RuntimeException e) {
      classic.terminate();
      throw e;
    }
    return s;
  }

  /**
   * @param classic a classic system
   * @param <T> what its guardian accepts (unchecked)
   * @return its typed view
   */
  @SuppressWarnings("unchecked")
  public static <T> TypedSystem<T> of(dev.troupe.actor.ActorSystem classic) {
    Objects.requireNonNull(classic, "classic");
    TypedSystem<?> s = SYSTEMS.get(classic);
    if (s == null) {
      TypedSystem<?> fresh = new TypedSystem<>(classic);
      s = SYSTEMS.putIfAbsent(classic, fresh);
      if (s == null) {
        s = fresh;
        classic.registerOnTermination(() -> SYSTEMS.remove(classic));
      }
    }
    return (TypedSystem<T>) s;
  }

  /** @return the classic system */
  public dev.troupe.actor.ActorSystem classic() {
    return classic;
  }

  @Override
  public dev.troupe.actor.ActorRef classicRef() {
    return target();
  }

  private dev.troupe.actor.ActorRef target() {
    dev.troupe.actor.ActorRef g = guardian;
    return g != null ? g : classic.deadLetters();
  }

  @Override
  public void tell(T message) {
    target().tell(Objects.requireNonNull(message, "message"), null);
  }

  @Override
  public ActorPath path() {
    return target().path();
  }

  @Override
  public String name() {
    return classic.name();
  }

  @Override
  public CompletionStage<Terminated> terminate() {
    return classic.terminate();
  }

  @Override
  public CompletionStage<Terminated> getWhenTerminated() {
    return classic.getWhenTerminated();
  }

  @Override
  public Scheduler scheduler() {
    return classic.scheduler();
  }

  @Override
  public Executor executionContext() {
    return classic.dispatcher();
  }

  @Override
  public ActorRef<Receptionist.Command> receptionist() {
    ActorRef<Receptionist.Command> r = receptionist;
    if (r == null) {
      synchronized (this) {
        r = receptionist;
        if (r == null) {
          Behavior<Receptionist.Command> behavior = receptionistBehavior(classic);
          r = new ActorRefAdapter<>(
              classic.actorOf(TypedActor.props(behavior, null, false, Props.empty()), RECEPTIONIST_NAME));
          receptionist = r;
        }
      }
    }
    return r;
  }

  /**
   * The receptionist's behaviour: from a {@link ReceptionistFactory} a module on the class or
   * module path provides, else the built-in one, cluster-wide where a {@link ServiceDirectory}
   * (the cluster module's) serves the system, else local.
   */
  private static Behavior<Receptionist.Command> receptionistBehavior(dev.troupe.actor.ActorSystem classic) {
    ReceptionistFactory chosen = null;
    for (ReceptionistFactory f : ServiceLoader.load(ReceptionistFactory.class, TypedSystem.class.getClassLoader())) {
      if (f.appliesTo(classic) && (chosen == null || f.priority() > chosen.priority())) {
        chosen = f;
      }
    }
    if (chosen == null) {
      for (ServiceDirectory d : ServiceLoader.load(ServiceDirectory.class, TypedSystem.class.getClassLoader())) {
        if (d.appliesTo(classic)) {
          LOG.debug("system [{}] lists services cluster-wide through {}", classic.name(), d.getClass().getName());
          return LocalReceptionist.behavior(d.directory(classic));
        }
      }
      return LocalReceptionist.behavior();
    }
    LOG.debug("system [{}] uses the receptionist of {}", classic.name(), chosen.getClass().getName());
    return chosen.behavior(classic);
  }

  @Override
  public ActorRef<EventStream.Command> eventStream() {
    return eventStream;
  }

  @Override
  public Logger log() {
    return LOG;
  }

  @Override
  public dev.troupe.actor.ActorSystem.Settings settings() {
    return classic.settings();
  }

  @Override
  public <U> ActorRef<U> deadLetters() {
    return new ActorRefAdapter<>(classic.deadLetters());
  }

  @Override
  @SuppressWarnings("unchecked")
  public <U> ActorRef<U> ignoreRef() {
    return (ActorRef<U>) ignore;
  }

  @Override
  public <U> ActorRef<U> systemActorOf(Behavior<U> behavior, String name, Props props) {
    Objects.requireNonNull(props, "props");
    return new ActorRefAdapter<>(spi().systemActorOf(TypedActor.systemProps(behavior, props), name));
  }

  /** @return the runtime's services of the classic system */
  public SystemSpi spi() {
    if (classic instanceof SystemSpi s) {
      return s;
    }
    throw new IllegalStateException("actor system " + classic.name() + " (" + classic.getClass().getName()
        + ") is not a Troupe runtime's system");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TypedSystem<?> s && s.classic == classic;
  }

  @Override
  public int hashCode() {
    return classic.hashCode();
  }

  @Override
  public String toString() {
    return "ActorSystem[" + classic.name() + "]";
  }
}
