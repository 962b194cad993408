package dev.troupe.actor.internal;

import com.typesafe.config.Config;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.EventStream;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.Props;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.internal.dispatch.Dispatchers;
import dev.troupe.actor.internal.dispatch.MailboxType;
import dev.troupe.actor.internal.scheduler.HashedWheelScheduler;
import dev.troupe.actor.spi.Engine;
import dev.troupe.executors.NamedThreadFactory;
import dev.troupe.pattern.AskTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The local actor system: guardians, dispatchers, scheduler, event stream and dead letters.
 *
 * <p>Termination: {@link #terminate()} stops {@code /user}; the root guardian watches it and then
 * stops itself, which stops {@code /system}; when the root is gone its parent ref calls {@link
 * #finishTermination()}, which shuts the threads down, runs the termination hooks and completes
 * {@link #getWhenTerminated()}.
 */
public final class ActorSystemImpl extends ActorSystem implements Engine {
  final String name;
  final RuntimeSettings settings;
  final Settings publicSettings;
  final LoggingAdapter log;
  final Address address;
  final ActorPath rootPath;
  final Dispatchers dispatchers;
  final MailboxType defaultMailbox;
  final EventStreamImpl eventStream;
  final DeadLettersRef deadLetters;
  private final HashedWheelScheduler scheduler;
  private final LocalActorRef root;
  private final LocalActorRef userGuardian;
  private final LocalActorRef systemGuardian;
  private final ActorPath tempPath;
  private final AtomicLong tempCounter = new AtomicLong();
  private final CompletableFuture<Terminated> whenTerminated = new CompletableFuture<>();
  private final Deque<Runnable> terminationHooks = new ConcurrentLinkedDeque<>();
  private final AtomicBoolean terminating = new AtomicBoolean();
  private final long startNanos = System.nanoTime();

  ActorSystemImpl(String name, Config config) {
    this.name = name;
    this.settings = RuntimeSettings.from(config);
    this.publicSettings = new Settings(name, config);
    this.log = new Slf4jLoggingAdapter("dev.troupe.actor." + name);
    this.address = Address.local(name);
    this.rootPath = ActorPath.root(address);
    this.tempPath = rootPath.child("temp");
    this.dispatchers =
        new Dispatchers(
            config,
            name,
            settings.daemonic(),
            (thread, failure) ->
                log.error(failure, "uncaught failure on {}", thread.getName()));
    this.defaultMailbox = dispatchers.mailboxType("troupe.actor.default-mailbox");
    dispatchers.defaultDispatcher(); // validate the default dispatcher's config at start
    this.eventStream = new EventStreamImpl();
    this.deadLetters = new DeadLettersRef(this, rootPath.child("deadLetters"));
    this.scheduler =
        new HashedWheelScheduler(
            new NamedThreadFactory(name + "-scheduler", true),
            settings.schedulerTick(),
            settings.ticksPerWheel());
    RootParentRef rootParent = new RootParentRef(this, rootPath.child("bubble-walker"));
    this.root =
        new LocalActorRef(
            this,
            rootPath.withUid(ActorPath.UNDEFINED_UID),
            self ->
                new ActorCell(
                    this,
                    self,
                    rootParent,
                    Props.create(Guardians.Root.class),
                    dispatchers.defaultDispatcher(),
                    defaultMailbox));
    Props guardian = Props.create(Guardians.Guardian.class);
    this.userGuardian = (LocalActorRef) root.cell().attachChild(guardian, "user", true);
    this.systemGuardian = (LocalActorRef) root.cell().attachChild(guardian, "system", true);
    root.cell().start();
  }

  long nanoTime() {
    return System.nanoTime();
  }

  boolean isTerminating() {
    return terminating.get();
  }

  boolean isTerminated() {
    return whenTerminated.isDone();
  }

  // ============================================================ ActorSystem

  @Override
  public String name() {
    return name;
  }

  @Override
  public Settings settings() {
    return publicSettings;
  }

  @Override
  public LoggingAdapter log() {
    return log;
  }

  @Override
  public ActorRef actorOf(Props props) {
    return userGuardian.cell().attachChild(checkRunning(props), null, false);
  }

  @Override
  public ActorRef actorOf(Props props, String name) {
    if (name == null) {
      throw new InvalidActorNameException("actor name must not be null");
    }
    return userGuardian.cell().attachChild(checkRunning(props), name, false);
  }

  private Props checkRunning(Props props) {
    if (terminating.get()) {
      throw new IllegalStateException("actor system " + name + " is terminating");
    }
    return props;
  }

  /** Creates an actor under {@code /system}; for the runtime's own services. */
  ActorRef systemActorOf(Props props, String name) {
    return systemGuardian.cell().attachChild(props, name, true);
  }

  @Override
  public ActorSelection actorSelection(String path) {
    return selection(root, path);
  }

  @Override
  public ActorSelection actorSelection(ActorPath path) {
    if (!path.address().equals(address)) {
      return new ActorSelectionImpl(this, deadLetters, path.elements());
    }
    return new ActorSelectionImpl(this, root, path.elements());
  }

  /** Resolves a path string relative to {@code anchor}, or absolutely. */
  ActorSelection selection(InternalActorRef anchor, String path) {
    if (path == null) {
      throw new NullPointerException("path");
    }
    if (path.contains("://")) {
      int slash = path.indexOf('/', path.indexOf("://") + 3);
      Address a = Address.parse(slash < 0 ? path : path.substring(0, slash));
      String rest = slash < 0 ? "" : path.substring(slash);
      return new ActorSelectionImpl(this, a.equals(address) ? root : deadLetters, split(rest));
    }
    if (path.startsWith("/")) {
      return new ActorSelectionImpl(this, root, split(path));
    }
    return new ActorSelectionImpl(this, anchor, split(path));
  }

  private static List<String> split(String path) {
    List<String> out = new ArrayList<>();
    for (String e : path.split("/")) {
      if (!e.isEmpty() && !e.equals(".")) {
        out.add(e);
      }
    }
    return out;
  }

  @Override
  public void stop(ActorRef actor) {
    InternalActorRef.internal(actor).stop();
  }

  @Override
  public CompletionStage<Terminated> terminate() {
    if (terminating.compareAndSet(false, true)) {
      userGuardian.stop();
    }
    return whenTerminated;
  }

  @Override
  public CompletionStage<Terminated> getWhenTerminated() {
    return whenTerminated;
  }

  /** Called once, by the root's parent ref, when the root guardian has terminated. */
  void finishTermination() {
    terminating.set(true);
    dispatchers.shutdown();
    scheduler.close();
    Runnable hook;
    while ((hook = terminationHooks.pollFirst()) != null) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        log.error(e, "termination hook failed");
      }
    }
    whenTerminated.complete(new Terminated(root, true, false));
  }

  @Override
  public void registerOnTermination(Runnable hook) {
    if (whenTerminated.isDone()) {
      throw new IllegalStateException("actor system " + name + " already terminated");
    }
    terminationHooks.addFirst(hook);
  }

  @Override
  public Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public EventStream eventStream() {
    return eventStream;
  }

  @Override
  public ActorRef deadLetters() {
    return deadLetters;
  }

  @Override
  public Executor dispatcher() {
    return dispatchers.defaultDispatcher().executor();
  }

  @Override
  public Executor dispatcher(String id) {
    return dispatchers.lookup(id).executor();
  }

  @Override
  public ActorPath child(String childName) {
    return userGuardian.path().child(childName);
  }

  @Override
  public Address address() {
    return address;
  }

  @Override
  public Duration uptime() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** @return how many messages went to dead letters so far */
  public long deadLetterCount() {
    return deadLetters.count();
  }

  @Override
  public String toString() {
    return "ActorSystem[" + name + "]";
  }

  // ============================================================ Engine

  @Override
  public CompletionStage<Object> ask(Consumer<ActorRef> send, Duration timeout, String target) {
    PromiseActorRef ref = newPromiseRef();
    CompletableFuture<Object> result = ref.result;
    try {
      failAfter(result, timeout, "ask timed out on " + target + " after " + timeout.toMillis() + " ms");
    } catch (IllegalStateException closed) {
      result.completeExceptionally(closed);
      return result;
    }
    try {
      send.accept(ref);
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
    return result.minimalCompletionStage();
  }

  @Override
  public CompletionStage<Boolean> gracefulStop(ActorRef target, Duration timeout, Object stopMessage) {
    InternalActorRef t = InternalActorRef.internal(target);
    PromiseActorRef ref = newPromiseRef();
    CompletableFuture<Object> result = ref.result;
    failAfter(result, timeout, "gracefulStop of " + target + " timed out after " + timeout.toMillis() + " ms");
    t.sendSystemMessage(new SystemMessages.Watch(t, ref));
    t.tell(stopMessage, ActorRef.noSender());
    return result.thenApply(v -> Boolean.TRUE).minimalCompletionStage();
  }

  /**
   * Fails {@code result} with an {@link AskTimeoutException} after {@code timeout}, unless it
   * completed first (which cancels the timer). The failure is completed on the default dispatcher,
   * not the timer thread: callbacks chained without {@code *Async} run where the future completes,
   * and one blocking there must not hold up every other timer of the system.
   */
  private void failAfter(CompletableFuture<Object> result, Duration timeout, String message) {
    Cancellable timer =
        scheduler.scheduleOnce(
            timeout,
            () -> result.completeExceptionally(new AskTimeoutException(message)),
            dispatcher());
    result.whenComplete((v, e) -> timer.cancel());
  }

  private PromiseActorRef newPromiseRef() {
    return new PromiseActorRef(
        this, tempPath.child("$" + Long.toString(tempCounter.incrementAndGet(), 36)));
  }
}
