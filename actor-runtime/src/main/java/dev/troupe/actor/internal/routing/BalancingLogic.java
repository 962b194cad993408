package dev.troupe.actor.internal.routing;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeadLetter;
import dev.troupe.actor.Identify;
import dev.troupe.routing.Routee;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The balancing pool's shared work queue. Messages wait in one lock-free MPMC queue; each routee
 * has a {@link Slot} with a "has work" flag and gets at most one message at a time. A routee is
 * handed a message followed by an {@link Identify} probe, which its cell answers itself (the actor
 * never sees it) once the message is processed; the answer comes to {@link #completions}, frees the
 * slot and pulls the next message, on the routee's own thread.
 *
 * <p>No lost wake-up: a sender offers to the queue and then scans the flags; a finishing routee
 * clears its flag and then polls the queue. Both are sequentially consistent (queue CAS, volatile
 * flag), so at least one of them sees the other's write.
 */
final class BalancingLogic implements RoutingLogic {
  /** One routee's claim flag; kept across routee-set changes for routees that stay. */
  static final class Slot {
    final Routee routee;
    final AtomicBoolean busy = new AtomicBoolean();
    volatile boolean dead; // its probe came back from dead letters: never use again

    Slot(Routee routee) {
      this.routee = routee;
    }
  }

  private record Work(Object message, ActorRef sender) {}

  private final ConcurrentLinkedQueue<Work> backlog = new ConcurrentLinkedQueue<>();
  private final ActorSystem system;
  private final ActorRef self;
  private final ActorRef completions;
  private volatile Slot[] slots = new Slot[0];

  BalancingLogic(ActorSystem system, ActorRef self) {
    this.system = system;
    this.self = self;
    this.completions = new CompletionRef(self.path().child("$balancing-completions"));
  }

  @Override
  public Object prepare(Routee[] routees, Object previous) {
    Map<Routee, Slot> old = new HashMap<>();
    if (previous instanceof Slot[] prev) {
      for (Slot s : prev) {
        old.put(s.routee, s);
      }
    }
    Slot[] next = new Slot[routees.length];
    for (int i = 0; i < routees.length; i++) {
      Slot s = old.get(routees[i]);
      next[i] = s != null ? s : new Slot(routees[i]);
    }
    return next;
  }

  @Override
  public void routeesChanged(Object prepared) {
    slots = (Slot[]) prepared;
    pump(ThreadLocalRandom.current().nextInt(Math.max(1, slots.length)));
  }

  @Override
  public void send(Object message, ActorRef sender, Routee[] routees, Object prepared) {
    backlog.offer(new Work(message, sender));
    Slot[] s = slots;
    pump(s.length <= 1 ? 0 : ThreadLocalRandom.current().nextInt(s.length));
  }

  @Override
  public void stopped() {
    slots = new Slot[0];
    Work w;
    while ((w = backlog.poll()) != null) {
      ActorRef from = w.sender == null ? system.deadLetters() : w.sender;
      system.deadLetters().tell(new DeadLetter(w.message, from, self), w.sender);
    }
  }

  /** Hands queued work to free slots until the queue is empty or every slot is busy. */
  private void pump(int start) {
    for (; ; ) {
      Slot[] s = slots;
      int n = s.length;
      if (n == 0 || backlog.isEmpty()) {
        return;
      }
      boolean handed = false;
      for (int k = 0; k < n; k++) {
        Slot slot = s[(start + k) % n];
        if (!slot.dead && slot.busy.compareAndSet(false, true)) {
          Work w = backlog.poll();
          if (w == null) {
            slot.busy.set(false);
            break; // the queue ran dry; the outer loop re-checks it after releasing the flag
          }
          deliver(slot, w);
          handed = true;
        }
      }
      if (!handed) {
        return; // all busy (or nothing left): a finishing routee pulls the rest
      }
    }
  }

  private void deliver(Slot slot, Work w) {
    slot.routee.send(w.message, w.sender);
    slot.routee.send(new Identify(slot), completions);
  }

  private void completed(Slot slot, boolean alive) {
    if (!alive) {
      slot.dead = true; // the routee is gone; the router drops it when its Terminated arrives
    } else {
      slot.busy.set(false);
    }
    Slot[] s = slots;
    int start = 0;
    for (int i = 0; i < s.length; i++) {
      if (s[i] == slot) {
        start = i; // try the routee that just finished first: its thread is warm
        break;
      }
    }
    pump(start);
  }

  /** Receives the routees' probe answers, on their threads. */
  private final class CompletionRef extends ActorRef {
    private final ActorPath path;

    CompletionRef(ActorPath path) {
      this.path = path;
    }

    @Override
    public ActorPath path() {
      return path;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
      if (message instanceof ActorIdentity id && id.correlationId() instanceof Slot slot) {
        completed(slot, id.ref().isPresent());
      }
    }
  }
}
