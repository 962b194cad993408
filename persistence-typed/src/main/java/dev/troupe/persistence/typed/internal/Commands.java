package dev.troupe.persistence.typed.internal;

import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The commands a persistent behaviour (event-sourced or durable-state) keeps instead of handling
 * them now: those that wait for its recovery or for a write to complete, and those its command
 * handler stashed. Together they are bounded by {@code troupe.persistence.typed.stash-capacity}
 * (beyond it a command goes to dead letters with a WARN); when the actor restarts they are handed to
 * its next start, to be handled after its recovery, in order, before any later message, as if the
 * failure had not happened to them; when it stops they go to dead letters. Actor thread only.
 *
 * @param <C> the commands
 */
public final class Commands<C> {
  /** The bound's key. */
  public static final String STASH_CAPACITY = "troupe.persistence.typed.stash-capacity";

  /** What a restarting actor left for its next start, by its classic ref. */
  private static final ConcurrentHashMap<dev.troupe.actor.ActorRef, Left> HANDED_OVER = new ConcurrentHashMap<>();

  private record Left(List<Object> waiting, List<Object> stashed) {}

  private final ActorContext<C> ctx;
  private final dev.troupe.actor.ActorRef self;
  private final String owner;
  private final int capacity;
  private final ArrayDeque<C> waiting = new ArrayDeque<>();
  private final ArrayDeque<C> stashed = new ArrayDeque<>();

  /**
   * Reads the bound, and takes what this actor's previous start handed over.
   *
   * @param ctx the actor's context
   * @param owner the actor for messages, e.g. "event-sourced actor [Cart|42]"
   * @throws ConfigurationException if the bound is malformed, naming its key
   */
  @SuppressWarnings("unchecked")
  public Commands(ActorContext<C> ctx, String owner) {
    this.ctx = ctx;
    this.self = Adapter.toClassic(ctx.getSelf());
    this.owner = owner;
    this.capacity = capacity(Adapter.toClassic(ctx.getSystem()));
    Left left = HANDED_OVER.remove(self);
    if (left != null) {
      left.waiting().forEach(c -> waiting.add((C) c));
      left.stashed().forEach(c -> stashed.add((C) c));
    }
  }

  private static int capacity(dev.troupe.actor.ActorSystem system) {
    try {
      int v = system.settings().config().getInt(STASH_CAPACITY);
      if (v < 1) {
        throw new ConfigurationException(STASH_CAPACITY + " must be at least 1, was " + v);
      }
      return v;
    } catch (ConfigException e) {
      throw new ConfigurationException(STASH_CAPACITY + ": " + e.getMessage(), e);
    }
  }

  /** @return the commands that wait for recovery or a write, oldest first */
  public ArrayDeque<C> waiting() {
    return waiting;
  }

  /** @param command a command that must wait for recovery or a write */
  public void await(C command) {
    keep(waiting, command);
  }

  /** @param command a command the handler stashed */
  public void stash(C command) {
    keep(stashed, command);
  }

  /** Puts the stashed commands, oldest first, before those that wait. */
  public void unstashAll() {
    for (C c = stashed.pollLast(); c != null; c = stashed.pollLast()) {
      waiting.addFirst(c);
    }
  }

  private void keep(ArrayDeque<C> into, C command) {
    if (waiting.size() + stashed.size() >= capacity) {
      ctx.getLog().warn("{} keeps {} commands ({}): {} goes to dead letters", owner, capacity, STASH_CAPACITY,
          command.getClass().getName());
      ctx.getSystem().deadLetters().tell(command);
      return;
    }
    into.add(command);
  }

  /** The actor restarts: what it keeps goes to its next start. */
  public void handOver() {
    if (!waiting.isEmpty() || !stashed.isEmpty()) {
      HANDED_OVER.put(self, new Left(new ArrayList<>(waiting), new ArrayList<>(stashed)));
      waiting.clear();
      stashed.clear();
    }
  }

  /** The actor stops: what it keeps goes to dead letters, not lost silently. */
  public void dropAll() {
    dev.troupe.actor.typed.ActorRef<Object> dead = ctx.getSystem().deadLetters();
    for (C c = stashed.poll(); c != null; c = stashed.poll()) {
      dead.tell(c);
    }
    for (C c = waiting.poll(); c != null; c = waiting.poll()) {
      dead.tell(c);
    }
  }
}
