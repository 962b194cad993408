package dev.troupe.actor.typed.internal;

import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.Receptionist.Command;
import dev.troupe.actor.typed.receptionist.Receptionist.Listing;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The receptionist of one system: listings and subscriptions in two maps, kept by one actor. It
 * watches every instance and subscriber (with {@code watchWith}, so a stop arrives as a command) and
 * drops them when they stop, telling the subscribers of the keys that changed.
 *
 * <p>Cluster-wide when a {@link ServiceDirectory} serves the system (the cluster module's): after
 * every change to this node's instances of a key it tells the directory all of them, and the
 * directory tells it, after every change elsewhere, all the other nodes' instances of a key. A
 * listing is this node's instances and the others', and the subscribers of a key hear a change on
 * any node. A key is named on the wire by its message class's name and its id.
 */
final class LocalReceptionist {
  private final ActorContext<Command> ctx;
  private final Map<ServiceKey<?>, Set<ActorRef<?>>> services = new HashMap<>();
  /** The other nodes' instances, by the wire name of their key ({@link #wireName}); no empty set. */
  private final Map<String, Set<ActorRef<?>>> remote = new HashMap<>();
  private final Map<ServiceKey<?>, Set<ActorRef<Listing>>> subscribers = new HashMap<>();
  /**
   * Reference counts of watches, by the actor watched (a message adapter's maker, see {@link
   * #watchTarget}), so that an actor both listed and subscribed is watched once.
   */
  private final Map<ActorRef<?>, Integer> watched = new HashMap<>();
  /** The directory's actor, or null: local only. */
  private final dev.troupe.actor.ActorRef directory;

  private LocalReceptionist(ActorContext<Command> ctx, dev.troupe.actor.ActorRef directory) {
    this.ctx = ctx;
    this.directory = directory;
  }

  static Behavior<Command> behavior() {
    return behavior(null);
  }

  /**
   * @param directory the cluster's directory on this node, or null for a receptionist of this
   *     system alone
   * @return the receptionist's behaviour
   */
  static Behavior<Command> behavior(dev.troupe.actor.ActorRef directory) {
    return Behaviors.setup(ctx -> {
      LocalReceptionist r = new LocalReceptionist(ctx, directory);
      if (directory != null) {
        ActorRef<ServiceDirectory.RemoteInstances> adapter =
            ctx.messageAdapter(ServiceDirectory.RemoteInstances.class, Elsewhere::new);
        directory.tell(new ServiceDirectory.Attach(ActorRefAdapter.toClassic(adapter)), null);
      }
      return r.receive();
    });
  }

  /** An instance or subscriber stopped. */
  private record Gone(ActorRef<?> ref) implements Command {}

  /** The directory's news: all the other nodes' instances of one service. */
  private record Elsewhere(ServiceDirectory.RemoteInstances instances) implements Command {}

  private Behavior<Command> receive() {
    return Behaviors.receive(Command.class)
        .onMessage(Receptionist.Register.class, r -> register(r))
        .onMessage(Receptionist.Deregister.class, d -> deregister(d))
        .onMessage(Receptionist.Find.class, f -> find(f))
        .onMessage(Receptionist.Subscribe.class, s -> subscribe(s))
        .onMessage(Gone.class, g -> gone(g.ref()))
        .onMessage(Elsewhere.class, e -> elsewhere(e.instances()))
        .build();
  }

  private Listing listing(ServiceKey<?> key) {
    Set<ActorRef<?>> here = services.getOrDefault(key, Set.of());
    Set<ActorRef<?>> there = directory == null ? null : remote.get(wireName(key));
    if (there == null) {
      return new Listing(key, here);
    }
    Set<ActorRef<?>> all = new LinkedHashSet<>(here);
    all.addAll(there);
    return new Listing(key, all);
  }

  /** @return the name of a key between nodes: its message class's name and its id */
  static String wireName(ServiceKey<?> key) {
    return key.messageClass().getName() + "#" + key.id();
  }

  private Behavior<Command> elsewhere(ServiceDirectory.RemoteInstances news) {
    Set<ActorRef<?>> there = new LinkedHashSet<>();
    for (dev.troupe.actor.ActorRef r : news.instances()) {
      there.add(new ActorRefAdapter<>(r));
    }
    Set<ActorRef<?>> before = there.isEmpty() ? remote.remove(news.service()) : remote.put(news.service(), there);
    if (!there.equals(before == null ? Set.of() : before)) {
      for (ServiceKey<?> key : subscribers.keySet()) {
        if (wireName(key).equals(news.service())) {
          notifySubscribers(key);
        }
      }
    }
    return Behaviors.same();
  }

  /** Tells the directory, if any, all of this node's instances of {@code key}. */
  private void publish(ServiceKey<?> key) {
    if (directory != null) {
      Set<dev.troupe.actor.ActorRef> refs = new HashSet<>();
      for (ActorRef<?> r : services.getOrDefault(key, Set.of())) {
        dev.troupe.actor.ActorRef classic = crossesNodes(r);
        if (classic != null) {
          refs.add(classic);
        }
      }
      directory.tell(new ServiceDirectory.LocalInstances(wireName(key), refs), null);
    }
  }

  /**
   * @return the classic ref of an instance that other nodes can reach, or null for one that lives
   *     only in this system (a message adapter, a ref with no classic actor behind it): such an
   *     instance is listed here only
   */
  private static dev.troupe.actor.ActorRef crossesNodes(ActorRef<?> r) {
    dev.troupe.actor.ActorRef classic =
        r instanceof ActorRefAdapter<?> a ? a.classic()
            : r instanceof ActorRefAdapter.ClassicBacked c ? c.classicRef()
            : null;
    return classic instanceof MessageAdapterRef ? null : classic;
  }

  private Behavior<Command> find(Receptionist.Find<?> f) {
    f.replyTo().tell(listing(f.key()));
    return Behaviors.same();
  }

  private Behavior<Command> register(Receptionist.Register<?> r) {
    if (services.computeIfAbsent(r.key(), k -> new LinkedHashSet<>()).add(r.service())) {
      watch(r.service());
      publish(r.key());
      notifySubscribers(r.key());
    }
    if (r.replyTo() != null) {
      r.replyTo().tell(new Receptionist.Registered(r.key(), r.service()));
    }
    return Behaviors.same();
  }

  private Behavior<Command> deregister(Receptionist.Deregister<?> d) {
    Set<ActorRef<?>> set = services.get(d.key());
    if (set != null && set.remove(d.service())) {
      if (set.isEmpty()) {
        services.remove(d.key());
      }
      unwatch(d.service());
      publish(d.key());
      notifySubscribers(d.key());
    }
    if (d.replyTo() != null) {
      d.replyTo().tell(new Receptionist.Deregistered(d.key(), d.service()));
    }
    return Behaviors.same();
  }

  private Behavior<Command> subscribe(Receptionist.Subscribe<?> s) {
    if (subscribers.computeIfAbsent(s.key(), k -> new LinkedHashSet<>()).add(s.subscriber())) {
      watch(s.subscriber());
    }
    s.subscriber().tell(listing(s.key()));
    return Behaviors.same();
  }

  /** An actor stopped: it leaves, and so do its message adapters (listed or subscribed). */
  private Behavior<Command> gone(ActorRef<?> actor) {
    watched.remove(actor);
    Set<ServiceKey<?>> changed = new HashSet<>();
    services.entrySet().removeIf(e -> {
      if (e.getValue().removeIf(r -> watchTarget(r).equals(actor))) {
        changed.add(e.getKey());
      }
      return e.getValue().isEmpty();
    });
    subscribers.values().removeIf(set -> set.removeIf(r -> watchTarget(r).equals(actor)) && set.isEmpty());
    changed.forEach(this::publish);
    changed.forEach(this::notifySubscribers);
    return Behaviors.same();
  }

  private void notifySubscribers(ServiceKey<?> key) {
    Set<ActorRef<Listing>> subs = subscribers.get(key);
    if (subs != null && !subs.isEmpty()) {
      Listing l = listing(key);
      subs.forEach(s -> s.tell(l));
    }
  }

  /**
   * @return the actor whose stop ends {@code ref}: the ref's own, or, for a message adapter (a
   *     subscriber made with {@code ctx.messageAdapter(Listing.class, ...)}, often), the actor that
   *     made it, which is what can be watched
   */
  private static ActorRef<?> watchTarget(ActorRef<?> ref) {
    return ref instanceof ActorRefAdapter<?> a && a.classic() instanceof MessageAdapterRef m
        ? new ActorRefAdapter<>(m.owner())
        : ref;
  }

  private void watch(ActorRef<?> instance) {
    ActorRef<?> ref = watchTarget(instance);
    if (watched.merge(ref, 1, Integer::sum) == 1) {
      ctx.watchWith(ref, new Gone(ref));
    }
  }

  private void unwatch(ActorRef<?> instance) {
    ActorRef<?> ref = watchTarget(instance);
    Integer n = watched.get(ref);
    if (n != null) {
      if (n == 1) {
        watched.remove(ref);
        ctx.unwatch(ref);
      } else {
        watched.put(ref, n - 1);
      }
    }
  }
}
