package dev.troupe.actor.typed.internal;

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
 */
final class LocalReceptionist {
  private final ActorContext<Command> ctx;
  private final Map<ServiceKey<?>, Set<ActorRef<?>>> services = new HashMap<>();
  private final Map<ServiceKey<?>, Set<ActorRef<Listing>>> subscribers = new HashMap<>();
  /** Reference counts of watches, so that an actor both listed and subscribed is watched once. */
  private final Map<ActorRef<?>, Integer> watched = new HashMap<>();

  private LocalReceptionist(ActorContext<Command> ctx) {
    this.ctx = ctx;
  }

  static Behavior<Command> behavior() {
    return Behaviors.setup(ctx -> new LocalReceptionist(ctx).receive());
  }

  /** An instance or subscriber stopped. */
  private record Gone(ActorRef<?> ref) implements Command {}

  private Behavior<Command> receive() {
    return Behaviors.receive(Command.class)
        .onMessage(Receptionist.Register.class, r -> register(r))
        .onMessage(Receptionist.Deregister.class, d -> deregister(d))
        .onMessage(Receptionist.Find.class, f -> find(f))
        .onMessage(Receptionist.Subscribe.class, s -> subscribe(s))
        .onMessage(Gone.class, g -> gone(g.ref()))
        .build();
  }

  private Listing listing(ServiceKey<?> key) {
    return new Listing(key, services.getOrDefault(key, Set.of()));
  }

  private Behavior<Command> find(Receptionist.Find<?> f) {
    f.replyTo().tell(listing(f.key()));
    return Behaviors.same();
  }

  private Behavior<Command> register(Receptionist.Register<?> r) {
    if (services.computeIfAbsent(r.key(), k -> new LinkedHashSet<>()).add(r.service())) {
      watch(r.service());
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

  private Behavior<Command> gone(ActorRef<?> ref) {
    watched.remove(ref);
    Set<ServiceKey<?>> changed = new HashSet<>();
    services.entrySet().removeIf(e -> {
      if (e.getValue().remove(ref)) {
        changed.add(e.getKey());
      }
      return e.getValue().isEmpty();
    });
    subscribers.values().removeIf(set -> set.remove(ref) && set.isEmpty());
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

  private void watch(ActorRef<?> ref) {
    if (watched.merge(ref, 1, Integer::sum) == 1) {
      ctx.watchWith(ref, new Gone(ref));
    }
  }

  private void unwatch(ActorRef<?> ref) {
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
