package dev.troupe.actor.typed.internal;

import dev.troupe.actor.StashOverflowException;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.StashBuffer;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Consumer;

/** A bounded FIFO of messages, unstashed through the interpreter on the actor's thread. */
public final class StashBufferImpl<T> implements StashBuffer<T> {
  private final int capacity;
  private final ActorContext<T> ctx;
  private final ArrayDeque<T> messages = new ArrayDeque<>();

  /**
   * @param capacity the most messages kept (at least 1)
   * @param ctx the actor's context
   */
  public StashBufferImpl(int capacity, ActorContext<T> ctx) {
    if (capacity < 1) {
      throw new IllegalArgumentException("stash capacity must be >= 1, was " + capacity);
    }
    this.capacity = capacity;
    this.ctx = ctx;
  }

  @Override
  public StashBuffer<T> stash(T message) {
    Objects.requireNonNull(message, "message");
    if (messages.size() >= capacity) {
      throw new StashOverflowException(
          "stash of " + ctx.getSelf() + " is full (capacity " + capacity + "), cannot stash " + message);
    }
    messages.addLast(message);
    return this;
  }

  @Override
  public Behavior<T> unstashAll(Behavior<T> behavior) {
    Behavior<T> b = Interpreter.start(behavior, ctx);
    for (int n = messages.size(); n > 0 && Interpreter.isAlive(b); n--) {
      T m = messages.pollFirst();
      Behavior<T> next = Interpreter.interpretMessage(b, ctx, m);
      if (Interpreter.isUnhandled(next)) {
        InternalContext.of(ctx).unhandled(m);
      }
      b = Interpreter.canonicalize(next, b, ctx);
    }
    return b;
  }

  @Override
  public int size() {
    return messages.size();
  }

  @Override
  public boolean isEmpty() {
    return messages.isEmpty();
  }

  @Override
  public boolean isFull() {
    return messages.size() >= capacity;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public void forEach(Consumer<T> action) {
    messages.forEach(action);
  }

  @Override
  public void clear() {
    messages.clear();
  }
}
