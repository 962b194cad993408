package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.DeadLetterReason;

import dev.troupe.actor.internal.ref.PromiseActorRef;
import dev.troupe.actor.internal.ref.DeadLettersRef;
import dev.troupe.actor.internal.logging.LoggingProviderCheck;
import dev.troupe.actor.internal.logging.Slf4jLoggingAdapter;
import dev.troupe.actor.internal.config.ConfigWarnings;
import dev.troupe.actor.internal.config.RuntimeSettings;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.TraceCarrier;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Cancellable;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.EventStream;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.LoggingAdapter;
import dev.troupe.actor.Props;
import dev.troupe.actor.Scheduler;
import dev.troupe.actor.Telemetry;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.internal.dispatch.Dispatchers;
import dev.troupe.actor.internal.dispatch.EnvelopeFactory;
import dev.troupe.actor.internal.dispatch.MailboxType;
import dev.troupe.actor.internal.scheduler.HashedWheelScheduler;
import dev.troupe.actor.internal.shutdown.CoordinatedShutdownImpl;
import dev.troupe.actor.internal.shutdown.ShutdownSettings;
import dev.troupe.actor.internal.telemetry.SystemTelemetry;
import dev.troupe.actor.spi.AskService;
import dev.troupe.actor.spi.SystemSpi;
import dev.troupe.actor.spi.TelemetrySource;
import dev.troupe.executors.NamedThreadFactory;
import dev.troupe.pattern.AskTimeoutException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * The local actor system: guardians, dispatchers, scheduler, event stream and dead letters.
 *
 * <p>Termination: {@link #terminate()} runs the {@link CoordinatedShutdown}, whose last phase (and,
 * when that phase is configured not to, the end of the run) calls {@link #terminateNow()}: it
 * stops {@code /user}; the root guardian watches it and then stops itself, which stops {@code
 * /system}; when the root is gone its parent ref calls {@link #finishTermination()}, which shuts
 * the threads down, runs the termination hooks and completes {@link #getWhenTerminated()}.
 */
public final class ActorSystemImpl extends ActorSystem
    implements AskService, SystemSpi, TelemetrySource, RuntimeSystem {
  private static final VarHandle ENVELOPE_FACTORY;

  static {
    try {
      ENVELOPE_FACTORY =
          MethodHandles.lookup()
              .findVarHandle(ActorSystemImpl.class, "envelopeFactory", EnvelopeFactory.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final String name;
  final RuntimeSettings settings;
  final Settings publicSettings;
  final LoggingAdapter log;
  final Dispatchers dispatchers;
  private final SystemTelemetry telemetry; // null when troupe.telemetry.enabled = off
  final MailboxType defaultMailbox;
  final EventStreamImpl eventStream;
  private final HashedWheelScheduler wheel;
  private final SystemScheduler scheduler;
  private final ActorRefProvider provider;
  private final LocalActorRefProviderImpl local;
  final DeadLettersRef deadLetters; // the local provider's, in a field: read on every sender-less reply
  private final Set<InternalActorRef> addressWatchers = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Terminated> whenTerminated = new CompletableFuture<>();
  private final Deque<Runnable> terminationHooks = new ConcurrentLinkedDeque<>();
  private final AtomicBoolean terminating = new AtomicBoolean();
  private final AtomicBoolean terminateRequested = new AtomicBoolean();
  private final CoordinatedShutdownImpl coordinatedShutdown;
  private final long startNanos = System.nanoTime();

  /**
   * Makes local sends' envelopes while a tracing module is installed; null otherwise (the usual
   * case). Written with CAS ({@link #installEnvelopeFactory}), read with an opaque load on every
   * local send ({@link #envelopeFactory}): a plain load's cost, but never hoisted out of a sender's
   * loop, so a send soon sees an installation. The factory's own state must be in final fields
   * (final-field semantics publish it to a reader that saw the reference without an acquire).
   */
  @SuppressWarnings("unused") // accessed through ENVELOPE_FACTORY
  private EnvelopeFactory envelopeFactory;

  ActorSystemImpl(String name, Config config) {
    this.name = name;
    this.settings = RuntimeSettings.from(config);
    ShutdownSettings shutdownSettings = ShutdownSettings.from(config); // fails before any thread starts
    this.publicSettings = new Settings(name, config);
    this.log = new Slf4jLoggingAdapter("dev.troupe.actor." + name);
    LoggingProviderCheck.notice(
            LoggerFactory.getILoggerFactory(), settings.logNoLoggingProviderNotice())
        .ifPresent(System.err::println);
    if (settings.logConfigWarnings()) {
      for (String warning : ConfigWarnings.unknownKeys(config, ConfigFactory.defaultReference())) {
        log.warning("{}", warning);
      }
    }
    this.dispatchers =
        new Dispatchers(
            config,
            name,
            settings.daemonic(),
            (thread, failure) ->
                log.error(failure, "uncaught failure on {}", thread.getName()));
    this.telemetry = TelemetryWiring.create(this, config, dispatchers);
    this.defaultMailbox = dispatchers.mailboxType("troupe.actor.default-mailbox");
    dispatchers.defaultDispatcher(); // validate the default dispatcher's config at start
    this.eventStream = new EventStreamImpl();
    this.wheel =
        new HashedWheelScheduler(
            new NamedThreadFactory(name + "-scheduler", true),
            settings.schedulerTick(),
            settings.ticksPerWheel());
    this.scheduler = new SystemScheduler(wheel, this);
    dispatchers.scheduler(scheduler); // the starvation watches look at their pools on it
    ActorRefProvider p;
    LocalActorRefProviderImpl l;
    try {
      p = Providers.create(settings.provider(), this);
      l = Providers.localHalf(p, settings.provider());
    } catch (RuntimeException | Error e) {
      dispatchers.shutdown();
      wheel.close();
      throw e;
    }
    this.provider = p;
    this.local = l;
    this.deadLetters = local.deadLettersRef();
    p.init();
    this.coordinatedShutdown =
        new CoordinatedShutdownImpl(
            name, this::terminateNow, this::isTerminating, shutdownSettings, dispatchers.defaultDispatcher().executor());
    TelemetryWiring.started(this, telemetry);
  }

  @Override
  public Telemetry telemetry() {
    return telemetry == null ? Telemetry.Disabled.INSTANCE : telemetry;
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

  /** @return the failure of a call that a terminated system cannot serve */
  IllegalStateException terminatedException() {
    return new IllegalStateException("actor system " + name + " has terminated");
  }

  /** @throws IllegalStateException naming the system, once it has terminated */
  void checkNotTerminated() {
    if (isTerminated()) {
      throw terminatedException();
    }
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
    return local.guardian().cell().attachChild(checkRunning(props), null, false);
  }

  @Override
  public ActorRef actorOf(Props props, String name) {
    if (name == null) {
      throw new InvalidActorNameException("actor name must not be null");
    }
    return local.guardian().cell().attachChild(checkRunning(props), name, false);
  }

  private Props checkRunning(Props props) {
    checkNotTerminated();
    if (terminating.get()) {
      throw new IllegalStateException("actor system " + name + " is terminating");
    }
    return props;
  }

  @Override
  public ActorRef systemActorOf(Props props, String name) {
    if (name == null) {
      throw new InvalidActorNameException("actor name must not be null");
    }
    return local.systemGuardian().cell().attachChild(checkRunning(props), name, false);
  }

  @Override
  public LoggingAdapter logger(String name) {
    return new Slf4jLoggingAdapter(Objects.requireNonNull(name, "name"));
  }

  @Override
  public ActorRef resolveActorRef(ActorPath path) {
    return provider.resolveActorRef(Objects.requireNonNull(path, "path"));
  }

  @Override
  public ActorSelection actorSelection(String path) {
    return selection(local.rootGuardian(), path);
  }

  @Override
  public ActorSelection actorSelection(ActorPath path) {
    return new ActorSelectionImpl(this, provider.rootGuardianAt(path.address()), path.elements());
  }

  /** Resolves a path string relative to {@code anchor}, or absolutely. */
  ActorSelection selection(InternalActorRef anchor, String path) {
    if (path == null) {
      throw new NullPointerException("path");
    }
    if (path.contains("://")) {
      int slash = path.indexOf('/', path.indexOf("://") + 3);
      Address a;
      try {
        a = Address.parse(slash < 0 ? path : path.substring(0, slash));
      } catch (IllegalArgumentException e) {
        throw invalidSelection(path, e.getMessage());
      }
      String rest = slash < 0 ? "" : path.substring(slash);
      return new ActorSelectionImpl(this, provider.rootGuardianAt(a), split(path, rest));
    }
    if (path.startsWith("/")) {
      return new ActorSelectionImpl(this, local.rootGuardian(), split(path, path));
    }
    return new ActorSelectionImpl(this, anchor, split(path, path));
  }

  /** The elements of {@code elements} (a part of {@code text}), each a name, a pattern or "..". */
  private static List<String> split(String text, String elements) {
    List<String> out = new ArrayList<>();
    for (String e : elements.split("/")) {
      if (e.isEmpty() || e.equals(".")) {
        continue;
      }
      // '?' is a wildcard here, not a character of a name; '*' is both
      if (!e.equals("..") && !ActorPath.isValidPathElement(e.replace('?', '*'))) {
        throw invalidSelection(
            text,
            "element '"
                + e
                + "' is neither '..' nor an actor name or pattern: use ASCII letters, digits,"
                + " '-_.$+:@&=,!~;' and %XX escapes, with the wildcards '*' and '?'");
      }
      out.add(e);
    }
    return out;
  }

  private static IllegalArgumentException invalidSelection(String text, String problem) {
    return new IllegalArgumentException("invalid actor selection '" + text + "': " + problem);
  }

  @Override
  public void stop(ActorRef actor) {
    InternalActorRef.internal(actor).stop();
  }

  @Override
  public CompletionStage<Terminated> terminate() {
    if (terminateRequested.compareAndSet(false, true)) {
      // the run's last phase terminates the system; this covers terminate-actor-system = off, a
      // phase with recover = off that ended the run, and a run started earlier for another reason
      coordinatedShutdown
          .runAll(CoordinatedShutdown.actorSystemTerminateReason())
          .whenComplete((done, failure) -> terminateNow());
    }
    return whenTerminated;
  }

  /** Stops the actors and then the threads, without the coordinated shutdown's phases. */
  CompletionStage<Terminated> terminateNow() {
    if (terminating.compareAndSet(false, true)) {
      local.guardian().stop();
    }
    return whenTerminated;
  }

  @Override
  public CoordinatedShutdown coordinatedShutdown() {
    return coordinatedShutdown;
  }

  @Override
  public CompletionStage<Terminated> getWhenTerminated() {
    return whenTerminated;
  }

  /** Called once, by the root's parent ref, when the root guardian has terminated. */
  void finishTermination() {
    terminating.set(true);
    try {
      provider.shutdown();
    } catch (RuntimeException e) {
      log.error(e, "the ref provider failed to shut down");
    }
    dispatchers.shutdown();
    wheel.close();
    coordinatedShutdown.systemStopped();
    Runnable hook;
    while ((hook = terminationHooks.pollFirst()) != null) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        log.error(e, "termination hook failed");
      }
    }
    coordinatedShutdown.callbacksDone();
    whenTerminated.complete(new Terminated(local.rootGuardian(), true, false));
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
    return local.guardian().path().child(childName);
  }

  @Override
  public Address address() {
    return provider.address();
  }

  /** @return the system's ref provider */
  @Override
  public ActorRefProvider provider() {
    return provider;
  }

  /** @return the local half of the provider, the engine's own */
  LocalActorRefProviderImpl localProvider() {
    return local;
  }

  @Override
  public ActorSystem actorSystem() {
    return this;
  }

  @Override
  public LocalActorRefProviderImpl newLocalProvider(Address address) {
    return new LocalActorRefProviderImpl(this, address);
  }

  @Override
  public AskService askService() {
    return this;
  }

  // ============================================================ address termination (death watch)

  /**
   * Tells death watch that every actor of {@code address} is gone: each local actor that watches
   * one of them gets {@code Terminated(ref, existenceConfirmed = false, addressTerminated = true)},
   * and forgets the watchers it had there. Called by a transport when a node left or was declared
   * dead; any thread.
   *
   * @param address the address that is gone (never this system's own)
   */
  @Override
  public void addressTerminated(Address address) {
    if (address.equals(provider.address())) {
      throw new IllegalArgumentException("a system cannot declare its own address terminated: " + address);
    }
    SystemMessages.AddressTerminated m = new SystemMessages.AddressTerminated(address);
    for (InternalActorRef watcher : addressWatchers) {
      watcher.sendSystemMessage(m);
    }
  }

  /**
   * From now on {@code actor} gets an {@link SystemMessages.AddressTerminated} system message for
   * every address reported gone by {@link #addressTerminated}. The runtime subscribes an actor
   * that watches, or is watched by, a non-local actor; a transport may subscribe refs of its own.
   *
   * @param actor the subscriber
   */
  @Override
  public void subscribeAddressTerminated(InternalActorRef actor) {
    addressWatchers.add(actor);
  }

  /**
   * Ends a subscription of {@link #subscribeAddressTerminated}.
   *
   * @param actor the subscriber
   */
  @Override
  public void unsubscribeAddressTerminated(InternalActorRef actor) {
    addressWatchers.remove(actor);
  }

  @Override
  public Duration uptime() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** @return the envelope factory of local sends, or null (no tracing module installed) */
  EnvelopeFactory envelopeFactory() {
    return (EnvelopeFactory) ENVELOPE_FACTORY.getOpaque(this);
  }

  /**
   * The installed envelope factory, when it also carries trace contexts across the network (the
   * tracing module's does): remoting asks on each remote send and each traced arrival.
   */
  @Override
  public TraceCarrier traceCarrier() {
    return envelopeFactory() instanceof TraceCarrier carrier ? carrier : null;
  }

  /**
   * Installs the factory that makes the envelopes of local sends from now on (the tracing module).
   *
   * @param factory the factory; its state in final fields
   * @return false if another factory is installed (this one is not)
   */
  public boolean installEnvelopeFactory(EnvelopeFactory factory) {
    return ENVELOPE_FACTORY.compareAndSet(this, null, java.util.Objects.requireNonNull(factory));
  }

  /**
   * Removes {@code factory}, if it is the one installed: local sends go back to plain envelopes.
   *
   * @param factory the factory installed
   * @return whether it was installed
   */
  public boolean removeEnvelopeFactory(EnvelopeFactory factory) {
    return ENVELOPE_FACTORY.compareAndSet(this, factory, null);
  }

  /** @return how many messages went to dead letters so far */
  public long deadLetterCount() {
    return deadLetters.count();
  }

  /**
   * @return the reasons dead letters are counted by, as tags ({@code recipient-stopped}, {@code
   *     mailbox-full}, {@code no-such-actor}, {@code no-routee}, {@code explicit}, {@code other})
   */
  public static List<String> deadLetterReasons() {
    List<String> tags = new ArrayList<>();
    for (DeadLetterReason r : DeadLetterReason.values()) {
      tags.add(r.tag());
    }
    return tags;
  }

  /**
   * @param reason one of {@link #deadLetterReasons()}
   * @return how many messages went to dead letters for {@code reason} so far
   * @throws IllegalArgumentException for a reason not among them
   */
  public long deadLetterCount(String reason) {
    return deadLetters.count(DeadLetterReason.ofTag(reason));
  }

  @Override
  public String toString() {
    return "ActorSystem[" + name + "]";
  }

  // ============================================================ AskService

  @Override
  public CompletionStage<Object> ask(Consumer<ActorRef> send, Duration timeout, String target) {
    if (isTerminated()) {
      return CompletableFuture.failedStage(terminatedException());
    }
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
  public CompletionStage<Object> ask(
      ActorRef target, Consumer<ActorRef> send, Duration timeout, String description) {
    InternalActorRef t = InternalActorRef.internal(target);
    if (isTerminated()) {
      return CompletableFuture.failedStage(terminatedException());
    }
    if (t.isTerminated() || t instanceof DeadLettersRef) {
      return CompletableFuture.failedStage(
          new AskTimeoutException(
              "ask of " + description + " not sent: the recipient had already terminated"));
    }
    return ask(send, timeout, description);
  }

  @Override
  public CompletionStage<Boolean> gracefulStop(ActorRef target, Duration timeout, Object stopMessage) {
    InternalActorRef t = InternalActorRef.internal(target);
    if (isTerminated()) {
      return CompletableFuture.failedStage(terminatedException());
    }
    if (t.isTerminated()) {
      return CompletableFuture.completedStage(Boolean.TRUE);
    }
    PromiseActorRef ref = newPromiseRef();
    CompletableFuture<Object> result = ref.result;
    try {
      failAfter(result, timeout, "gracefulStop of " + target + " timed out after " + timeout.toMillis() + " ms");
    } catch (IllegalStateException closed) {
      return CompletableFuture.failedStage(closed);
    }
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
    return local.newTempRef();
  }
}
