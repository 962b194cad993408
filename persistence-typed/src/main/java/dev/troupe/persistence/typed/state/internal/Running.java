package dev.troupe.persistence.typed.state.internal;

import dev.troupe.actor.NotInfluenceReceiveTimeout;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.ExtensibleBehavior;
import dev.troupe.actor.typed.PostStop;
import dev.troupe.actor.typed.PreRestart;
import dev.troupe.actor.typed.Signal;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import dev.troupe.persistence.typed.DurableStateStoreException;
import dev.troupe.persistence.typed.RecoveryCompleted;
import dev.troupe.persistence.typed.RecoveryFailed;
import dev.troupe.persistence.typed.internal.Commands;
import dev.troupe.persistence.typed.internal.Steps;
import dev.troupe.persistence.typed.javadsl.SignalHandler;
import dev.troupe.persistence.typed.state.javadsl.CommandHandler;
import dev.troupe.persistence.typed.state.javadsl.DurableStateBehavior;
import dev.troupe.persistence.typed.state.javadsl.Effect;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The behaviour a durable-state actor runs: it reads its state from the store, then handles
 * commands, writing the new state an effect asks for. One instance per actor start; actor thread
 * only, except the store's callbacks, which only send the actor messages.
 *
 * <p>As for event-sourced actors: the store's answer comes back as a message (a {@link Reply})
 * tagged with this instance, so that a restarted actor ignores its predecessor's answers; commands
 * wait in {@link #kept} while the actor reads its state or while a write is in flight (one at
 * a time), and are handled in order, synchronously, once it is done, before any message that
 * arrives later. Commands waiting when the actor restarts are handed to its next start.
 *
 * @param <C> the commands
 * @param <S> the state
 */
public final class Running<C, S> extends ExtensibleBehavior<C> {

  private final DurableStateBehavior<C, S> definition;
  private final ActorContext<C> ctx;
  private final dev.troupe.actor.ActorRef self;
  private final String persistenceId;
  private final Persistence persistence;
  private final DurableStateStore store;
  private final CommandHandler<C, S> commands;
  private final SignalHandler<S> signals;
  private final String tag;

  private S state;
  private long revision;
  private boolean recovering = true;
  private EffectImpl<S> inFlight; // the effect whose write is in flight
  private final Commands<C> kept; // waiting for recovery or a write, or stashed

  private Running(DurableStateBehavior<C, S> definition, ActorContext<C> ctx) {
    this.definition = definition;
    this.ctx = ctx;
    this.self = Adapter.toClassic(ctx.getSelf());
    this.persistenceId = definition.persistenceId().id();
    dev.troupe.actor.ActorSystem classic = Adapter.toClassic(ctx.getSystem());
    this.persistence = Persistence.get(classic);
    this.store = persistence.durableStateStoreFor(definition.durableStateStorePluginId());
    this.commands = definition.commandHandler();
    this.signals = definition.signalHandler();
    this.tag = Objects.requireNonNull(definition.tag(), "tag() returned null");
    this.kept = new Commands<>(ctx, "durable-state actor [" + persistenceId + "]");
    this.state = definition.emptyState();
  }


  /**
   * Makes the behaviour of a starting actor and starts reading its state.
   *
   * @param definition the user's behaviour
   * @param ctx the actor's context
   * @param <C> the commands
   * @param <S> the state
   * @return the behaviour
   */
  public static <C, S> Behavior<C> start(DurableStateBehavior<C, S> definition, ActorContext<C> ctx) {
    Running<C, S> r = new Running<>(definition, ctx);
    r.startRecovery();
    return r;
  }

  // =============================================================== messages and signals

  @Override
  public Behavior<C> receive(ActorContext<C> ctx, C msg) {
    Object m = msg; // the store's answer arrives as a message of the actor's type only by erasure
    if (m instanceof Reply r) {
      return r.owner == this ? r.apply(this) : Behaviors.same();
    }
    if (recovering || inFlight != null) {
      kept.await(msg);
      return Behaviors.same();
    }
    return handle(msg);
  }

  @Override
  public Behavior<C> receiveSignal(ActorContext<C> ctx, Signal signal) {
    if (signal instanceof PreRestart) {
      kept.handOver();
    } else if (signal instanceof PostStop) {
      kept.dropAll(); // commands this behaviour kept are not lost silently when the actor ends
    }
    return signals.apply(state, signal) ? Behaviors.same() : Behaviors.unhandled();
  }

  private Behavior<C> handle(C command) {
    Effect<S> e = commands.apply(state, command);
    if (!(e instanceof EffectImpl<S> effect)) {
      throw new IllegalStateException("the command handler of [" + persistenceId + "] returned " + e
          + " for " + command + ": return an effect made by Effect()");
    }
    switch (effect.kind) {
      case PERSIST, DELETE -> {
        write(effect);
        return Behaviors.same();
      }
      case STASH -> kept.stash(command);
      case UNHANDLED -> {
        Behavior<C> after = runSteps(effect);
        return after == Behaviors.<C>same() ? Behaviors.unhandled() : after;
      }
      case NONE -> {
        // nothing to store: the steps run now
      }
    }
    return runSteps(effect);
  }

  /**
   * The effect's steps, with the current state; then the actor stops if one asked (after all the
   * steps), else the stashed commands are handled if one asked.
   */
  private Behavior<C> runSteps(EffectImpl<S> effect) {
    Steps.After after = effect.steps.run(state);
    if (after == Steps.After.STOP) {
      return Behaviors.stopped();
    }
    if (after == Steps.After.UNSTASH) {
      kept.unstashAll(); // the stashed ones first, oldest first, before those waiting for a write
      return drain();
    }
    return Behaviors.same();
  }

  /** Handles the commands waiting in the buffer, in order, until one writes or stops the actor. */
  private Behavior<C> drain() {
    ArrayDeque<C> buffered = kept.waiting();
    int n = buffered.size(); // a command stashed again while draining waits for the next unstash
    while (n-- > 0 && inFlight == null && !buffered.isEmpty()) {
      Behavior<C> b = handle(buffered.poll());
      if (b == Behaviors.<C>stopped()) {
        return b;
      }
    }
    return Behaviors.same();
  }

  // =============================================================== recovery

  private void startRecovery() {
    answer(call(() -> store.getObject(persistenceId), "read of the durable state of persistence id [" + persistenceId + "]"),
        Loaded::new, e -> new RecoveryFailedReply(this, e));
  }

  @SuppressWarnings("unchecked")
  private Behavior<C> onLoaded(GetObjectResult loaded) {
    if (loaded.value().isPresent()) {
      state = (S) loaded.value().get();
    }
    revision = loaded.revision();
    recovering = false;
    signals.apply(state, RecoveryCompleted.instance());
    return drain();
  }

  private Behavior<C> recoveryFailed(Throwable cause) {
    signals.apply(state, new RecoveryFailed(cause));
    throw new DurableStateStoreException("recovery of the durable state of persistence id [" + persistenceId
        + "] failed", cause);
  }

  // =============================================================== writes

  private void write(EffectImpl<S> effect) {
    inFlight = effect;
    long next = revision + 1;
    boolean delete = effect.kind == EffectImpl.Kind.DELETE;
    String what = (delete ? "delete" : "write") + " of the durable state of persistence id [" + persistenceId
        + "] at revision " + next;
    answer(call(() -> delete ? store.deleteObject(persistenceId, next)
        : store.upsertObject(persistenceId, next, effect.state, tag), what),
        Written::new, e -> new WriteFailed(this, what, e));
  }

  private Behavior<C> onWritten() {
    EffectImpl<S> effect = inFlight;
    inFlight = null;
    revision++;
    state = effect.kind == EffectImpl.Kind.DELETE ? definition.emptyState() : effect.state;
    Behavior<C> after = runSteps(effect);
    return after == Behaviors.<C>stopped() ? after : drain();
  }

  private Behavior<C> onWriteFailed(String what, Throwable cause) {
    throw new DurableStateStoreException("the " + what + " failed", cause);
  }

  // =============================================================== the store's answers

  /** A store call, bounded by the call timeout; one that throws is a failed stage. */
  private <T> CompletionStage<T> call(java.util.function.Supplier<CompletionStage<T>> call, String what) {
    try {
      return persistence.bounded(Objects.requireNonNull(call.get(), "the store returned no stage"), what);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private <T> void answer(CompletionStage<T> stage, java.util.function.BiFunction<Running<?, ?>, T, Reply> reply,
      Function<Throwable, Reply> failure) {
    stage.whenComplete((v, e) -> self.tell(e == null ? reply.apply(this, v) : failure.apply(unwrap(e)),
        dev.troupe.actor.ActorRef.noSender()));
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }

  /** The store's answer to one actor start. */
  private abstract static class Reply implements NotInfluenceReceiveTimeout {
    final Running<?, ?> owner;

    Reply(Running<?, ?> owner) {
      this.owner = owner;
    }

    abstract <C> Behavior<C> apply(Running<C, ?> r);
  }

  private static final class Loaded extends Reply {
    final GetObjectResult result;

    Loaded(Running<?, ?> owner, GetObjectResult result) {
      super(owner);
      this.result = result;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?> r) {
      return r.onLoaded(result);
    }
  }

  private static final class RecoveryFailedReply extends Reply {
    final Throwable cause;

    RecoveryFailedReply(Running<?, ?> owner, Throwable cause) {
      super(owner);
      this.cause = cause;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?> r) {
      return r.recoveryFailed(cause);
    }
  }

  private static final class Written extends Reply {
    Written(Running<?, ?> owner, Object ignored) {
      super(owner);
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?> r) {
      return r.onWritten();
    }
  }

  private static final class WriteFailed extends Reply {
    final String what;
    final Throwable cause;

    WriteFailed(Running<?, ?> owner, String what, Throwable cause) {
      super(owner);
      this.what = what;
      this.cause = cause;
    }

    @Override
    <C> Behavior<C> apply(Running<C, ?> r) {
      return r.onWriteFailed(what, cause);
    }
  }
}
