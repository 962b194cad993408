package dev.troupe.guide.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.pubsub.DistributedPubSub;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The publish-subscribe blocks of {@code docs/cluster.md}, compiled and run: two members in this JVM
 * (in-memory engine, loopback); a subscriber on one hears what the other publishes, and a {@code
 * Send} from one reaches the actor put on the other.
 */
@Timeout(60)
class PubSubDocSnippetsTest {
  private static final Duration CHANGE = Duration.ofSeconds(15);

  private final List<ActorSystem> systems = new ArrayList<>();

  // tag::pubsub-subscriber[]
  /** Subscribes to "content" when it starts; hands what is published there to its reader. */
  static final class ContentReader extends AbstractActor {
    private final ActorRef reader;

    ContentReader(ActorRef reader) {
      this.reader = reader;
    }

    @Override
    public void preStart() {
      ActorRef mediator = DistributedPubSub.get(getContext().getSystem()).mediator();
      mediator.tell(new DistributedPubSubMediator.Subscribe("content", getSelf()), getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(DistributedPubSubMediator.SubscribeAck.class, ack -> reader.tell("subscribed", getSelf()))
          .match(String.class, text -> reader.tell("read: " + text, getSelf()))
          .build();
    }
  }
  // end::pubsub-subscriber[]

  /** Answers what it is sent, as the page's order desk. */
  static final class OrderDesk extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().match(String.class, o -> getSender().tell("taken: " + o, getSelf())).build();
    }
  }

  private ActorSystem member() {
    ActorSystem s = ActorSystem.create("pubsub-docs", ConfigFactory.parseString("troupe.actor.provider = cluster\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.cluster.membership.provider = in-memory\n"
        + "troupe.cluster.seed-node-timeout = 300ms\n"
        + "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n").withFallback(ConfigFactory.load()));
    systems.add(s);
    return s;
  }

  @AfterEach
  void stop() {
    for (ActorSystem s : systems) {
      TestKit.shutdownActorSystem(s);
    }
  }

  @Test
  void aSubscriberHearsWhatAnotherMemberPublishesAndASendReachesThePutActor() {
    ActorSystem reading = member();
    ActorSystem system = member();
    Cluster.get(reading).join(reading.address());
    Cluster.get(system).join(reading.address());
    TestKit probe = new TestKit(system);
    probe.awaitCond(CHANGE, Duration.ofMillis(20), "both members Up",
        () -> Cluster.get(system).state().members().stream().filter(m -> m.status() == MemberStatus.UP).count() == 2);

    TestKit reader = new TestKit(reading);
    reading.actorOf(Props.create(ContentReader.class, () -> new ContentReader(reader.getRef())), "reader");
    reader.expectMsg(CHANGE, "subscribed");
    ActorRef desk = reading.actorOf(Props.create(OrderDesk.class), "orders");
    DistributedPubSub.get(reading).mediator().tell(new DistributedPubSubMediator.Put(desk), ActorRef.noSender());
    ActorRef mediatorHere = DistributedPubSub.get(system).mediator();
    probe.awaitCond(CHANGE, Duration.ofMillis(50), "the topic and the path listed on the publishing member", () -> {
      probe.send(mediatorHere, DistributedPubSubMediator.getCountInstance());
      return probe.expectMsgClass(Integer.class) == 2;
    });

    // tag::pubsub-publish[]
    ActorRef mediator = DistributedPubSub.get(system).mediator();
    mediator.tell(new DistributedPubSubMediator.Publish("content", "hello"), ActorRef.noSender());
    // end::pubsub-publish[]
    reader.expectMsg(CHANGE, "read: hello");

    ActorRef self = probe.getRef();
    // tag::pubsub-send[]
    // on the member that runs it: reachable as "/user/orders" from every member
    DistributedPubSub.get(reading).mediator().tell(new DistributedPubSubMediator.Put(desk), ActorRef.noSender());
    // anywhere: to one such actor (this member's own first, with localAffinity = true)
    mediator.tell(new DistributedPubSubMediator.Send("/user/orders", "an order", true), self);
    // end::pubsub-send[]
    assertEquals("taken: an order", probe.expectMsgClass(CHANGE, String.class));
  }
}
