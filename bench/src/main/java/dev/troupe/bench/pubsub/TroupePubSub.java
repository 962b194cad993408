package dev.troupe.bench.pubsub;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.ClusterNodes;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.pubsub.DistributedPubSub;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Troupe side of {@code PubSubPublish}; mirrors {@link PekkoPubSub}. Members are {@code
 * troupe.actor.provider = cluster} on 127.0.0.1 with the default JGroups engine; the published
 * message on jackson-cbor.
 */
final class TroupePubSub implements PubSubDriver {
  private static final String CLUSTER = ClusterNodes.TROUPE;

  private final List<ActorSystem> members = new ArrayList<>();
  private final List<ActorRef> subscribers = new ArrayList<>();
  private ActorRef mediator;
  private final RemoteMessages.Ping message = new RemoteMessages.Ping(0, RemoteMessages.payload());

  @Override
  public void setup(int perMember) {
    String name = Names.unique("pubsub");
    for (int i = 0; i < 2; i++) {
      members.add(TroupeSystems.start(name, CLUSTER + Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT)));
    }
    for (ActorSystem s : members) {
      Cluster.get(s).join(members.get(0).address());
    }
    PubSubDriver.await("troupe: both members up", () -> members.stream().allMatch(s -> Cluster.get(s).state().members()
        .stream().filter(m -> m.status() == MemberStatus.UP).count() == 2));
    for (ActorSystem s : members) {
      ActorRef m = DistributedPubSub.get(s).mediator();
      for (int i = 0; i < perMember; i++) {
        ActorRef sub = s.actorOf(Props.create(Subscriber.class, Subscriber::new).withDispatcher(Dispatchers.ID));
        Patterns.ask(m, new DistributedPubSubMediator.Subscribe(TOPIC, sub), Duration.ofSeconds(10))
            .toCompletableFuture().join();
        subscribers.add(sub);
      }
    }
    mediator = DistributedPubSub.get(members.get(0)).mediator();
    PubSubDriver.await("troupe: the other member's subscriptions known on the first", () -> (Integer) Patterns
        .ask(mediator, DistributedPubSubMediator.getCountInstance(), Duration.ofSeconds(10))
        .toCompletableFuture().join() == 2);
  }

  @Override
  public void runIteration(int messages) {
    Completion done = new Completion(subscribers.size());
    PubSubDriver.Expect expect = new PubSubDriver.Expect(done, messages);
    for (ActorRef s : subscribers) {
      s.tell(expect, ActorRef.noSender());
    }
    DistributedPubSubMediator.Publish publish = new DistributedPubSubMediator.Publish(TOPIC, message);
    for (int i = 0; i < messages; i++) {
      mediator.tell(publish, ActorRef.noSender());
    }
    done.await("troupe publish-subscribe");
  }

  @Override
  public void teardown() {
    for (ActorSystem s : members) {
      TroupeSystems.stop(s);
    }
  }

  /** Counts deliveries down to its quota. */
  static final class Subscriber extends UntypedActor {
    private Completion done;
    private int left;

    @Override
    public void onReceive(Object m) {
      if (m instanceof RemoteMessages.Ping) {
        if (--left == 0) {
          done.done();
        }
      } else if (m instanceof PubSubDriver.Expect e) {
        done = e.done();
        left = e.messages();
      }
    }
  }
}
