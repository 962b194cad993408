package dev.troupe.bench.pubsub;

import dev.troupe.bench.common.ClusterNodes;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.RemoteMessages;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.UntypedAbstractActor;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.pubsub.DistributedPubSub;
import org.apache.pekko.cluster.pubsub.DistributedPubSubMediator;
import org.apache.pekko.pattern.Patterns;

/**
 * Pekko side of {@code PubSubPublish}; mirrors {@link TroupePubSub}. Members are Pekko Cluster
 * (classic) over Artery TCP on 127.0.0.1 with Pekko's {@code DistributedPubSub} at its defaults; the
 * published message on Pekko's jackson-cbor.
 */
final class PekkoPubSub implements PubSubDriver {
  private static final String CLUSTER = ClusterNodes.PEKKO;

  private final List<ActorSystem> members = new ArrayList<>();
  private final List<ActorRef> subscribers = new ArrayList<>();
  private ActorRef mediator;
  private final RemoteMessages.Ping message = new RemoteMessages.Ping(0, RemoteMessages.payload());

  @Override
  public void setup(int perMember) {
    String name = Names.unique("pubsub");
    for (int i = 0; i < 2; i++) {
      members.add(PekkoSystems.start(name, CLUSTER + Dispatchers.section(Impl.PEKKO, Dispatchers.DEFAULT_THROUGHPUT)));
    }
    for (ActorSystem s : members) {
      Cluster.get(s).join(Cluster.get(members.get(0)).selfAddress());
    }
    PubSubDriver.await("pekko: both members up", () -> members.stream().allMatch(PekkoPubSub::bothUp));
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
    // Pekko's Count: the registry's entries on every member (each member's topic actor, here 2)
    PubSubDriver.await("pekko: the other member's subscriptions known on the first", () -> (Integer) Patterns
        .ask(mediator, DistributedPubSubMediator.getCountInstance(), Duration.ofSeconds(10))
        .toCompletableFuture().join() == 2);
  }

  private static boolean bothUp(ActorSystem s) {
    int up = 0;
    for (Member m : Cluster.get(s).state().getMembers()) {
      if (m.status() == MemberStatus.up()) {
        up++;
      }
    }
    return up == 2;
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
    done.await("pekko publish-subscribe");
  }

  @Override
  public void teardown() {
    for (ActorSystem s : members) {
      PekkoSystems.stop(s);
    }
  }

  /** Counts deliveries down to its quota. */
  static final class Subscriber extends UntypedAbstractActor {
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
