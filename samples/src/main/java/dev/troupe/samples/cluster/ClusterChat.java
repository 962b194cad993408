package dev.troupe.samples.cluster;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Inbox;
import dev.troupe.actor.Props;
import dev.troupe.cluster.pubsub.DistributedPubSub;
import dev.troupe.cluster.pubsub.DistributedPubSubMediator;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A chat room over the cluster's publish-subscribe: every member runs a reader subscribed to the
 * topic {@code chat} (and to the group {@code moderators} of that topic), each member publishes a
 * few lines, and every reader hears every line once, each member's lines in the order it published
 * them. A line published to each group reaches one moderator in the whole cluster. A help desk put
 * under {@code /user/help-desk} on the last member answers a question sent by path from the first,
 * through an {@link Inbox} there.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar cluster-chat --members 3 --lines 2
 * </pre>
 *
 * The members are cluster systems in this JVM on 127.0.0.1 (the {@code cluster-chat} section of the
 * samples' configuration: the JGroups engine, free ports); the chat's messages are records bound to
 * {@code jackson-cbor}.
 */
@Command(name = "cluster-chat", description = "a chat room over the cluster's publish-subscribe (topics, a group, a help desk by path)")
public final class ClusterChat extends Sample {
  /** The system name every member of the sample's cluster has. */
  static final String SYSTEM = "cluster-chat";

  private static final String TOPIC = "chat";
  private static final long WAIT_SECONDS = InJvmCluster.WAIT_SECONDS;

  @Option(names = "--members", paramLabel = "N", description = "cluster members in this JVM, each with a reader (default ${DEFAULT-VALUE})")
  private int members = 3;

  @Option(names = "--lines", paramLabel = "N", description = "lines each member publishes (default ${DEFAULT-VALUE})")
  private int lines = 2;

  /** A line of the chat. */
  public record ChatLine(String from, int number, String text) {}

  /** A question to the help desk, and its answer. */
  public record Question(String text) {}

  /** The help desk's answer. */
  public record Answer(String text) {}

  /** What a reader heard, for the sample's main thread. */
  record Heard(String reader, boolean asModerator, ChatLine line) {}

  /** Subscribes to the chat and to its moderators' group; hands every line it hears to the main thread. */
  static final class Reader extends AbstractActor {
    private final String name;
    private final BlockingQueue<Object> heard;

    Reader(String name, BlockingQueue<Object> heard) {
      this.name = name;
      this.heard = heard;
    }

    @Override
    public void preStart() {
      ActorRef mediator = DistributedPubSub.get(getContext().getSystem()).mediator();
      mediator.tell(new DistributedPubSubMediator.Subscribe(TOPIC, getSelf()), getSelf());
      mediator.tell(new DistributedPubSubMediator.Subscribe(TOPIC, "moderators", getSelf()), getSelf());
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(DistributedPubSubMediator.SubscribeAck.class, ack -> heard.add(ack))
          .match(ChatLine.class, l -> heard.add(new Heard(name, l.text().startsWith("[moderate]"), l)))
          .build();
    }
  }

  /** Answers questions, naming the member it runs on. */
  static final class HelpDesk extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Question.class, q -> getSender().tell(new Answer("the desk on "
              + getContext().getSystem().address() + " says: try turning it off and on again ('" + q.text() + "')"),
              getSelf()))
          .build();
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    within("--members", members, 2, 9);
    within("--lines", lines, 1, 1000);
    List<ActorSystem> nodes = InJvmCluster.start(SYSTEM, members, out);
    try {
      BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
      for (int i = 0; i < members; i++) {
        String name = "member-" + (i + 1);
        nodes.get(i).actorOf(Props.create(Reader.class, () -> new Reader(name, heard)), "reader");
      }
      ActorSystem last = nodes.get(members - 1);
      ActorRef desk = last.actorOf(Props.create(HelpDesk.class), "help-desk");
      DistributedPubSub.get(last).mediator().tell(new DistributedPubSubMediator.Put(desk), ActorRef.noSender());
      for (int acks = 0; acks < 2 * members; acks++) {
        take(heard, "the readers' subscription acknowledgements");
      }
      // on every member: the chat and the moderators' group of each member, and the desk
      for (ActorSystem node : nodes) {
        awaitListings(node, 2 * members + 1);
      }
      out.println("every member knows every member's readers and the help desk");

      for (int k = 1; k <= lines; k++) {
        for (int i = 0; i < members; i++) {
          String from = "member-" + (i + 1);
          DistributedPubSub.get(nodes.get(i)).mediator().tell(
              new DistributedPubSubMediator.Publish(TOPIC, new ChatLine(from, k, "hello #" + k + " from " + from)),
              ActorRef.noSender());
        }
      }
      Map<String, Map<String, Integer>> lastSeen = new HashMap<>(); // reader -> sender -> last line number
      int expected = members * members * lines;
      boolean inOrder = true;
      for (int n = 0; n < expected; n++) {
        Heard h = (Heard) take(heard, "line " + (n + 1) + " of " + expected);
        out.println(h.reader() + " heard " + h.line().from() + ": " + h.line().text());
        int before = lastSeen.computeIfAbsent(h.reader(), r -> new HashMap<>()).getOrDefault(h.line().from(), 0);
        inOrder &= h.line().number() == before + 1;
        lastSeen.get(h.reader()).put(h.line().from(), h.line().number());
      }
      out.println(inOrder
          ? "every reader heard all " + members * lines + " lines once, each member's in the order it published them"
          : "OUT OF ORDER: " + lastSeen);

      DistributedPubSub.get(nodes.get(0)).mediator().tell(new DistributedPubSubMediator.Publish(TOPIC,
          new ChatLine("member-1", lines + 1, "[moderate] is this line fine?"), true), ActorRef.noSender());
      Heard reviewed = (Heard) take(heard, "the moderated line");
      out.println("one moderator, on " + reviewed.reader() + ", reviews: " + reviewed.line().text());

      try (Inbox inbox = Inbox.create(nodes.get(0))) {
        inbox.send(DistributedPubSub.get(nodes.get(0)).mediator(),
            new DistributedPubSubMediator.Send("/user/help-desk", new Question("my screen is dark"), false));
        Answer a = (Answer) inbox.receive(Duration.ofSeconds(WAIT_SECONDS));
        out.println("member-1 asked the help desk by its path: " + a.text());
      }
      Object extra = heard.poll(200, TimeUnit.MILLISECONDS);
      if (extra != null) {
        out.println("UNEXPECTED: " + extra);
      }
      return 0;
    } finally {
      InJvmCluster.terminate(nodes);
    }
  }

  private static Object take(BlockingQueue<Object> heard, String what) throws InterruptedException {
    Object m = heard.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (m == null) {
      throw new IllegalStateException("no " + what + " within " + WAIT_SECONDS + " s");
    }
    return m;
  }

  /** Waits until {@code node}'s mediator knows of {@code n} listings (no event announces it: polled). */
  private static void awaitListings(ActorSystem node, int n) throws Exception {
    ActorRef mediator = DistributedPubSub.get(node).mediator();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    int known = 0;
    while (System.nanoTime() < deadline) {
      known = (Integer) Patterns.ask(mediator, DistributedPubSubMediator.getCountInstance(), Duration.ofSeconds(WAIT_SECONDS))
          .toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      if (known == n) {
        return;
      }
      Thread.sleep(20); // paces the poll, bounded by the deadline
    }
    throw new IllegalStateException(node.address() + " knows " + known + " of " + n + " listings after " + WAIT_SECONDS + " s");
  }
}
