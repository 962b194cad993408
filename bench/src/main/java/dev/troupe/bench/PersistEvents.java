package dev.troupe.bench;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.TroupeSystems;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Events persisted by one persistent actor, Troupe's {@code AbstractPersistentActor} against Pekko
 * Persistence's classic one, each on its framework's in-memory journal and default dispatcher: the
 * benchmark thread tells the actor {@value #EVENTS} commands and waits until their events were
 * stored and handled. {@code persist}: each command persists one event and the next command waits
 * in the stash until its handler ran (a journal round trip per event); {@code async}: {@code
 * persistAsync}, commands go on while events are written (the journal batches what queues). At
 * the end of each invocation the actor deletes its events, so the journal does not grow. What is
 * measured is the persistence protocol and the journal's own cost, not a disk. Score: events/s.
 *
 * <p>Run: {@code java -jar benchmarks.jar PersistEvents -f 2 -wi 3 -i 5 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PersistEvents {
  /** Commands (and events) per invocation. */
  public static final int EVENTS = 20_000;

  /**
   * troupe | troupe-file (the same actor on the file journal, fsync off, in a temporary directory:
   * IO on the journal's own thread) | troupe-file-fsync (the same with fsync on: each group
   * commit forced to disk) | troupe-typed (an EventSourcedBehavior; {@code persist} mode
   * only) | pekko.
   */
  @Param({"troupe", "troupe-file", "troupe-file-fsync", "troupe-typed", "pekko"})
  public String impl;

  /** persist | async | chain. */
  @Param({"persist", "async", "chain"})
  public String mode;

  /** The command. */
  enum Cmd { INSTANCE }

  /** The event. */
  enum Evt { INSTANCE }

  /** Ends an invocation once every earlier event was handled. */
  record End(Completion done, long expected) {}

  /** {@code chain}: persist this many events one after another, each from the handler of the one before. */
  record Chain(int events, End end) {}

  private dev.troupe.actor.ActorSystem troupe;
  private org.apache.pekko.actor.ActorSystem pekko;
  private dev.troupe.actor.ActorRef troupeActor;
  private dev.troupe.actor.typed.ActorRef<Object> typedActor;
  private org.apache.pekko.actor.ActorRef pekkoActor;
  private long sent;
  private java.nio.file.Path fileDir;

  @Setup(Level.Trial)
  public void setup() {
    boolean async = switch (mode) {
      case "persist", "chain" -> false;
      case "async" -> true;
      default -> throw new IllegalArgumentException("mode is persist, async or chain, was " + mode);
    };
    String id = Names.unique("persist");
    switch (impl) {
      case "troupe" -> {
        troupe = TroupeSystems.start(id, "");
        troupeActor = troupe.actorOf(dev.troupe.actor.Props.create(TroupeWriter.class, () -> new TroupeWriter(id, async)));
      }
      case "troupe-file", "troupe-file-fsync" -> {
        try {
          fileDir = java.nio.file.Files.createTempDirectory("persist-events");
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        troupe = TroupeSystems.start(id, "troupe.persistence.journal.plugin = \"troupe.persistence.journal.file\"\n"
            + "troupe.persistence.journal.file.fsync = " + (impl.equals("troupe-file") ? "off" : "on") + "\n"
            + "troupe.persistence.journal.file.dir = \"" + fileDir.toString().replace("\\", "/") + "\"\n"
            + "troupe.serialization.bindings { \"dev.troupe.bench.PersistEvents$Evt\" = jackson-json }\n");
        troupeActor = troupe.actorOf(dev.troupe.actor.Props.create(TroupeWriter.class, () -> new TroupeWriter(id, async)));
      }
      case "troupe-typed" -> {
        if (!mode.equals("persist")) {
          throw new IllegalArgumentException("troupe-typed runs mode=persist only (no persistAsync, no persist from a handler)");
        }
        troupe = TroupeSystems.start(id, "");
        typedActor = dev.troupe.actor.typed.javadsl.Adapter.spawnAnonymous(troupe, new TypedWriter(id));
      }
      case "pekko" -> {
        pekko = PekkoSystems.start(id, "pekko.persistence.journal.plugin = \"pekko.persistence.journal.inmem\"\n");
        pekkoActor = pekko.actorOf(org.apache.pekko.actor.Props.create(PekkoWriter.class, () -> new PekkoWriter(id, async)));
      }
      default -> throw new IllegalArgumentException("impl is troupe, troupe-typed or pekko, was " + impl);
    }
    events0(); // an End alone: the actor has recovered before the first invocation's commands arrive
  }

  private void events0() {
    Completion ready = new Completion(1);
    End end = new End(ready, 0);
    if (typedActor != null) {
      typedActor.tell(end);
    } else if (troupeActor != null) {
      troupeActor.tell(end, dev.troupe.actor.ActorRef.noSender());
    } else {
      pekkoActor.tell(end, org.apache.pekko.actor.ActorRef.noSender());
    }
    ready.await(impl + " recovery");
  }

  @TearDown(Level.Trial)
  public void teardown() {
    TroupeSystems.stop(troupe);
    PekkoSystems.stop(pekko);
    if (fileDir != null) {
      try (var files = java.nio.file.Files.walk(fileDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public void events() {
    Completion done = new Completion(1);
    sent += EVENTS;
    if (mode.equals("chain")) {
      Chain chain = new Chain(EVENTS, new End(done, sent));
      if (troupeActor != null) {
        troupeActor.tell(chain, dev.troupe.actor.ActorRef.noSender());
      } else {
        pekkoActor.tell(chain, org.apache.pekko.actor.ActorRef.noSender());
      }
    } else if (typedActor != null) {
      for (int i = 0; i < EVENTS; i++) {
        typedActor.tell(Cmd.INSTANCE);
      }
      typedActor.tell(new End(done, sent));
    } else if (troupeActor != null) {
      for (int i = 0; i < EVENTS; i++) {
        troupeActor.tell(Cmd.INSTANCE, dev.troupe.actor.ActorRef.noSender());
      }
      troupeActor.tell(new End(done, sent), dev.troupe.actor.ActorRef.noSender());
    } else {
      for (int i = 0; i < EVENTS; i++) {
        pekkoActor.tell(Cmd.INSTANCE, org.apache.pekko.actor.ActorRef.noSender());
      }
      pekkoActor.tell(new End(done, sent), org.apache.pekko.actor.ActorRef.noSender());
    }
    done.await(impl + " persist");
  }

  private static void end(End e, long handled) {
    if (handled == e.expected()) {
      e.done().done();
    } else {
      e.done().fail("handled " + handled + " events, expected " + e.expected());
    }
  }

  /** Troupe's writer. */
  static final class TroupeWriter extends dev.troupe.persistence.AbstractPersistentActor {
    private final String id;
    private final boolean async;
    private long handled;

    TroupeWriter(String id, boolean async) {
      this.id = id;
      this.async = async;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().matchAny(m -> {}).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(Cmd.INSTANCE, c -> {
            if (async) {
              persistAsync(Evt.INSTANCE, e -> handled++);
            } else {
              persist(Evt.INSTANCE, e -> handled++);
            }
          })
          .match(Chain.class, c -> chain(c.events(), c.end()))
          .match(End.class, e -> deferAsync(e, x -> {
            deleteMessages(lastSequenceNr());
            end(x, handled);
          }))
          .matchAny(m -> {}) // the deletion's reply
          .build();
    }

    private void chain(int left, End end) {
      persist(Evt.INSTANCE, e -> {
        handled++;
        if (left > 1) {
          chain(left - 1, end);
        } else {
          deleteMessages(lastSequenceNr());
          end(end, handled);
        }
      });
    }
  }

  /**
   * Troupe's typed writer: the state counts the events handled. Typed persistence has no call to
   * delete events; a snapshot every 10,000 events that deletes the events before it keeps the
   * journal from growing instead (one snapshot of a Long per 10,000 events).
   */
  static final class TypedWriter extends dev.troupe.persistence.typed.javadsl.EventSourcedBehavior<Object, Evt, Long> {
    TypedWriter(String id) {
      super(dev.troupe.persistence.typed.PersistenceId.ofUniqueId(id));
    }

    @Override
    public Long emptyState() {
      return 0L;
    }

    @Override
    public dev.troupe.persistence.typed.javadsl.CommandHandler<Object, Evt, Long> commandHandler() {
      return newCommandHandlerBuilder().forAnyState()
          .onCommand(Cmd.class, c -> Effect().persist(Evt.INSTANCE))
          .onCommand(End.class, (handled, e) -> Effect().none().thenRun(s -> end(e, s)))
          .build();
    }

    @Override
    public dev.troupe.persistence.typed.javadsl.EventHandler<Long, Evt> eventHandler() {
      return (handled, e) -> handled + 1;
    }

    @Override
    public dev.troupe.persistence.typed.javadsl.RetentionCriteria retentionCriteria() {
      return dev.troupe.persistence.typed.javadsl.RetentionCriteria.snapshotEvery(10_000, 1).withDeleteEventsOnSnapshot();
    }
  }

  /** Pekko's writer, the same cases. */
  static final class PekkoWriter extends org.apache.pekko.persistence.AbstractPersistentActor {
    private final String id;
    private final boolean async;
    private long handled;

    PekkoWriter(String id, boolean async) {
      this.id = id;
      this.async = async;
    }

    @Override
    public String persistenceId() {
      return id;
    }

    @Override
    public Receive createReceiveRecover() {
      return receiveBuilder().matchAny(m -> {}).build();
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(Cmd.INSTANCE, c -> {
            if (async) {
              persistAsync(Evt.INSTANCE, e -> handled++);
            } else {
              persist(Evt.INSTANCE, e -> handled++);
            }
          })
          .match(Chain.class, c -> chain(c.events(), c.end()))
          .match(End.class, e -> deferAsync(e, x -> {
            deleteMessages(lastSequenceNr());
            end(x, handled);
          }))
          .matchAny(m -> {})
          .build();
    }

    private void chain(int left, End end) {
      persist(Evt.INSTANCE, e -> {
        handled++;
        if (left > 1) {
          chain(left - 1, end);
        } else {
          deleteMessages(lastSequenceNr());
          end(end, handled);
        }
      });
    }
  }
}
