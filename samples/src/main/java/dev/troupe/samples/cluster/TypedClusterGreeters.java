package dev.troupe.samples.cluster;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.Receptionist.Listing;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.typed.Cluster;
import dev.troupe.cluster.typed.Leave;
import dev.troupe.cluster.typed.Subscribe;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Typed actors across a cluster, found by the receptionist: every member runs a greeter and
 * registers it under one {@link ServiceKey}; a front on the first member subscribes (through a
 * message adapter, as typed actors do), greets each greeter the listing names, wherever it runs, and
 * sees the listing shrink when a member leaves: told to leave through the typed cluster's manager,
 * and heard removed through the front's cluster subscription.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar typed-cluster --members 3 --name Ada
 * </pre>
 *
 * The members are cluster systems in this JVM on 127.0.0.1 (the {@code typed-cluster} section of
 * the samples' configuration: the JGroups engine, free ports). {@link Greet} carries a typed
 * reply-to ref across the wire (the record is bound to {@code jackson-cbor}).
 */
@Command(name = "typed-cluster", description = "typed greeters on every member of a cluster, found by the receptionist")
public final class TypedClusterGreeters extends Sample {
  /** The system name every member of the sample's cluster has. */
  static final String SYSTEM = "typed-cluster";

  /** How long a change in the cluster may take to reach the front. */
  private static final long WAIT_SECONDS = InJvmCluster.WAIT_SECONDS;

  @Option(names = "--members", paramLabel = "N", description = "cluster members in this JVM, each with a greeter (default ${DEFAULT-VALUE})")
  private int members = 3;

  @Option(names = "--name", paramLabel = "NAME", description = "whom the greeters greet (default ${DEFAULT-VALUE})")
  private String name = "Troupe";

  /** What the front hears: listings of the greeters, and their greetings. */
  public interface FrontMessage {}

  /** A greeter's protocol: greet {@code whom}, and answer {@code replyTo}. */
  public record Greet(String whom, ActorRef<Greeted> replyTo) {}

  /** A greeting, from one greeter. */
  public record Greeted(String text) implements FrontMessage {}

  /** The receptionist's listing of the greeters, as the front's own message. */
  record GreetersListed(Listing listing) implements FrontMessage {}

  /** A member removed from the cluster, as the front's own message. */
  record MemberRemoved(Address member) implements FrontMessage {}

  /** The key every member's greeter is registered under. */
  public static final ServiceKey<Greet> GREETERS = ServiceKey.create(Greet.class, "greeters");

  /**
   * @param where the member it runs on, named in its greeting
   * @return a greeter
   */
  static Behavior<Greet> greeter(Address where) {
    return Behaviors.receiveMessage(g -> {
      g.replyTo().tell(new Greeted("hello " + g.whom() + ", from the greeter on " + where));
      return Behaviors.same();
    });
  }

  /**
   * The front: subscribes to the greeters' listing and to member removals through message adapters
   * and hands every listing, removal and greeting it hears to {@code heard}, for the sample's main
   * thread.
   */
  static Behavior<FrontMessage> front(BlockingQueue<FrontMessage> heard) {
    return Behaviors.setup(ctx -> {
      ActorRef<Listing> listings = ctx.messageAdapter(Listing.class, GreetersListed::new);
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(GREETERS, listings));
      ActorRef<ClusterEvent.MemberRemoved> removals =
          ctx.messageAdapter(ClusterEvent.MemberRemoved.class, r -> new MemberRemoved(r.member().address()));
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(removals, ClusterEvent.MemberRemoved.class));
      return Behaviors.receiveMessage(m -> {
        heard.add(m);
        return Behaviors.same();
      });
    });
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    within("--members", members, 2, 9);
    if (name.isBlank()) {
      throw usageError("--name must not be blank");
    }
    List<ActorSystem> nodes = InJvmCluster.start(SYSTEM, members, out);
    try {
      for (ActorSystem node : nodes) {
        ActorRef<Greet> greeter = Adapter.spawn(node, greeter(node.address()), "greeter");
        Adapter.toTyped(node).receptionist().tell(Receptionist.register(GREETERS, greeter));
      }

      BlockingQueue<FrontMessage> heard = new LinkedBlockingQueue<>();
      ActorRef<FrontMessage> front = Adapter.spawn(nodes.get(0), front(heard), "front");
      Set<ActorRef<Greet>> greeters = awaitListing(heard, members);
      out.println("the receptionist on " + nodes.get(0).address() + " lists " + greeters.size() + " greeters: "
          + addresses(greeters));

      ActorRef<Greeted> replyTo = front.narrow();
      for (ActorRef<Greet> g : greeters) {
        g.tell(new Greet(name, replyTo));
      }
      Set<String> greetings = new TreeSet<>();
      while (greetings.size() < greeters.size()) {
        FrontMessage m = heard.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (m == null) {
          throw new IllegalStateException("only " + greetings.size() + " of " + greeters.size() + " greetings in " + WAIT_SECONDS + " s");
        }
        if (m instanceof Greeted g) {
          greetings.add(g.text());
        }
      }
      greetings.forEach(out::println);

      ActorSystem leaving = nodes.get(nodes.size() - 1);
      Cluster.get(nodes.get(0)).manager().tell(Leave.create(leaving.address()));
      Set<ActorRef<Greet>> after = awaitLeft(heard, members - 1, leaving.address());
      out.println("the front heard: member " + leaving.address() + " removed");
      out.println("member " + leaving.address() + " left; the receptionist lists " + after.size() + " greeters: "
          + addresses(after));
      return 0;
    } finally {
      InJvmCluster.terminate(nodes);
    }
  }

  /** @return the instances of the first listing of {@code n} greeters the front hears */
  private static Set<ActorRef<Greet>> awaitListing(BlockingQueue<FrontMessage> heard, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    Set<ActorRef<Greet>> last = Set.of();
    while (System.nanoTime() < deadline) {
      FrontMessage m = heard.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (m instanceof GreetersListed l) {
        last = l.listing().getServiceInstances(GREETERS);
        if (last.size() == n) {
          return last;
        }
      }
    }
    throw new IllegalStateException("no listing of " + n + " greeters in " + WAIT_SECONDS + " s; the last had " + last.size());
  }

  /**
   * @return the instances of the first listing of {@code n} greeters the front hears, once it has
   *     also heard that {@code member} was removed
   */
  private static Set<ActorRef<Greet>> awaitLeft(BlockingQueue<FrontMessage> heard, int n, Address member)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    Set<ActorRef<Greet>> listed = null;
    boolean removed = false;
    while (System.nanoTime() < deadline && (listed == null || !removed)) {
      FrontMessage m = heard.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (m instanceof GreetersListed l && listed == null && l.listing().getServiceInstances(GREETERS).size() == n) {
        listed = l.listing().getServiceInstances(GREETERS);
      } else if (m instanceof MemberRemoved r && r.member().equals(member)) {
        removed = true;
      }
    }
    if (listed == null || !removed) {
      throw new IllegalStateException("in " + WAIT_SECONDS + " s the front heard " + (removed ? "" : "no removal of "
          + member + (listed == null ? " and " : "")) + (listed == null ? "no listing of " + n + " greeters" : ""));
    }
    return listed;
  }

  private static Set<String> addresses(Set<ActorRef<Greet>> greeters) {
    Set<String> a = new TreeSet<>();
    greeters.forEach(g -> a.add(g.path().address().toString()));
    return a;
  }
}
