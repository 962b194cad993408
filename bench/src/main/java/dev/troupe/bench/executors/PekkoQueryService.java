package dev.troupe.bench.executors;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.QueryMessages;
import dev.troupe.bench.common.QueryMessages.Answer;
import dev.troupe.bench.common.QueryMessages.Query;
import dev.troupe.bench.common.QueryMessages.Start;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;

/** Pekko side of {@code ExecutorComparison}; mirrors {@link TroupeQueryService} line by line. */
final class PekkoQueryService implements QueryServiceDriver {
  private ActorSystem system;
  private ActorRef[] queriers;

  @Override
  public void setup(ExecutorKind executor, int threads, int throughput, int pairs) {
    String config = Dispatchers.section(Impl.PEKKO, throughput, executor.hocon(threads, true));
    system = PekkoSystems.start(Names.unique("query"), config);
    queriers = new ActorRef[pairs];
    for (int i = 0; i < pairs; i++) {
      ActorRef service =
          system.actorOf(Props.create(Service.class, Service::new).withDispatcher(Dispatchers.ID));
      queriers[i] =
          system.actorOf(
              Props.create(Querier.class, () -> new Querier(service))
                  .withDispatcher(Dispatchers.ID));
    }
  }

  @Override
  public void runIteration(int queriesPerPair) {
    Completion done = new Completion(queriers.length);
    Start start = new Start(done, queriesPerPair);
    for (ActorRef q : queriers) {
      q.tell(start, ActorRef.noSender());
    }
    done.await("pekko queries");
  }

  @Override
  public String systemName() {
    return system.name();
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static int valueOf(int key) {
    return key * 31 + 7;
  }

  static final class Querier extends UntypedAbstractActor {
    private final ActorRef service;
    private Completion done;
    private int quota;
    private int answered;
    private int key;

    Querier(ActorRef service) {
      this.service = service;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Answer a) {
        if (a.value() != valueOf(a.key())) {
          done.fail("wrong answer " + a);
          return;
        }
        if (++answered < quota) {
          key = (key + 7) & (QueryMessages.KEYS - 1);
          service.tell(new Query(key), getSelf());
        } else {
          done.done();
        }
      } else if (message instanceof Start s) {
        done = s.done();
        quota = s.queries();
        answered = 0;
        service.tell(new Query(key), getSelf());
      } else {
        unhandled(message);
      }
    }
  }

  static final class Service extends UntypedAbstractActor {
    private final Map<Integer, Integer> values = new HashMap<>();

    Service() {
      for (int k = 0; k < QueryMessages.KEYS; k++) {
        values.put(k, valueOf(k));
      }
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Query q) {
        Integer v = values.get(q.key());
        getSender().tell(new Answer(q.key(), v), getSelf());
      } else {
        unhandled(message);
      }
    }
  }
}
