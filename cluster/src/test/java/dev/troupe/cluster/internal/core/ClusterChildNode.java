package dev.troupe.cluster.internal.core;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.ClusterEvent;
import dev.troupe.cluster.ClusterEvent.MemberRemoved;
import dev.troupe.cluster.ClusterEvent.MemberUp;
import dev.troupe.cluster.Member;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A whole cluster node alone in a JVM, for tests and measurements that kill or freeze its process:
 * an actor system with {@code troupe.actor.provider = cluster}, the JGroups engine, remoting on
 * 127.0.0.1, port 0.
 *
 * <pre>
 * ClusterChildNode &lt;system&gt; &lt;seed address | found&gt; [--watch] [--remote] [HOCON line...]
 * </pre>
 *
 * The HOCON lines override the node's settings (e.g. short failure-detector timings for tests);
 * without them the node runs the defaults. {@code found} founds the cluster; a seed address joins
 * through it. {@code --watch}: on each other member's {@code MemberUp} it looks up that member's
 * {@code /user/target} and watches it. {@code --remote}: a bare remote system, no cluster (to
 * measure what the cluster adds). Every node starts {@code /user/target}, an actor that does
 * nothing. It prints, one line each, with {@code <ms>} the wall clock in milliseconds:
 *
 * <ul>
 *   <li>{@code ADDRESS <address>} once started;
 *   <li>{@code JOINING <ms>} just before it joins;
 *   <li>{@code EVENT <ms> <event class> <address> [previous status]} for each member and
 *       reachability event, then {@code MEMBERS <address>:<status>,...} (the state after it);
 *   <li>{@code WATCHING <path>} and {@code TERMINATED <path> addressTerminated=<bool>} for the
 *       watched actors;
 *   <li>{@code SYSTEM-TERMINATED <ms>} when its actor system has terminated (a downed node's
 *       coordinated shutdown), after which the JVM exits.
 * </ul>
 *
 * It exits by itself after ten minutes at most, so that it never outlives a test by much.
 */
public final class ClusterChildNode {
  public static final String ADDRESS = "ADDRESS ";
  public static final String JOINING = "JOINING ";
  public static final String EVENT = "EVENT ";
  public static final String MEMBERS = "MEMBERS ";
  public static final String WATCHING = "WATCHING ";
  public static final String TERMINATED = "TERMINATED ";
  public static final String SYSTEM_TERMINATED = "SYSTEM-TERMINATED ";

  private static final long MAX_LIFE_MS = 10 * 60 * 1000;

  private ClusterChildNode() {}

  public static void main(String[] args) throws Exception {
    String system = args[0];
    String seed = args[1];
    boolean watch = false;
    boolean remoteOnly = false;
    List<String> overrides = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      switch (args[i]) {
        case "--watch" -> watch = true;
        case "--remote" -> remoteOnly = true;
        default -> overrides.add(args[i]);
      }
    }
    Thread limit = new Thread(() -> {
      try {
        Thread.sleep(MAX_LIFE_MS);
      } catch (InterruptedException e) {
        return;
      }
      Runtime.getRuntime().halt(3);
    }, "max-life");
    limit.setDaemon(true);
    limit.start();

    Config config = ConfigFactory.parseString(String.join("\n", overrides))
        .withFallback(ConfigFactory.parseString(
            "troupe.actor.provider = " + (remoteOnly ? "remote" : "cluster") + "\n"
                + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
                + "troupe.remote.canonical.port = 0\n"
                + "troupe.cluster.membership.provider = jgroups\n"));
    ActorSystem sys = ActorSystem.create(system, config);
    sys.getWhenTerminated().thenRun(() -> {
      print(SYSTEM_TERMINATED + System.currentTimeMillis());
      System.exit(0);
    });
    sys.actorOf(Props.create(Target.class, Target::new), "target");
    print(ADDRESS + sys.address());
    if (remoteOnly) {
      return;
    }
    Cluster cluster = Cluster.get(sys);
    boolean watching = watch;
    sys.actorOf(Props.create(Printer.class, () -> new Printer(cluster, watching)), "printer");
    Address seedAddress = seed.equals("found") ? sys.address() : Address.parse(seed);
    print(JOINING + System.currentTimeMillis());
    cluster.joinSeedNodes(List.of(seedAddress));
  }

  static synchronized void print(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /** Does nothing; watched by other nodes' printers. */
  static final class Target extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> { }).build();
    }
  }

  /** Prints the cluster's events and, with {@code --watch}, watches other members' targets. */
  static final class Printer extends AbstractActor {
    private final Cluster cluster;
    private final boolean watch;

    Printer(Cluster cluster, boolean watch) {
      this.cluster = cluster;
      this.watch = watch;
    }

    @Override
    public void preStart() {
      cluster.subscribe(getSelf(), ClusterEvent.initialStateAsEvents(), ClusterEvent.MemberEvent.class,
          ClusterEvent.ReachabilityEvent.class);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ClusterEvent.MemberEvent.class, this::event)
          .match(ClusterEvent.ReachabilityEvent.class, e -> event(e, member(e), ""))
          .match(ActorIdentity.class, id -> id.ref().ifPresent(ref -> {
            getContext().watch(ref);
            print(WATCHING + ref.path());
          }))
          .match(Terminated.class, t -> print(TERMINATED + t.actor().path() + " addressTerminated=" + t.addressTerminated()))
          .build();
    }

    private void event(ClusterEvent.MemberEvent e) {
      event(e, e.member(), e instanceof MemberRemoved r ? " " + r.previousStatus() : "");
      if (watch && e instanceof MemberUp up && !up.member().address().equals(cluster.selfAddress())) {
        getContext().getSystem().actorSelection(up.member().address() + "/user/target")
            .tell(new Identify(up.member().address().toString()), getSelf());
      }
    }

    private void event(ClusterEvent e, Member m, String suffix) {
      print(EVENT + System.currentTimeMillis() + " " + e.getClass().getSimpleName() + " " + m.address() + suffix);
      print(MEMBERS + cluster.state().members().stream().map(x -> x.address() + ":" + x.status())
          .collect(Collectors.joining(",")));
    }

    private static Member member(ClusterEvent.ReachabilityEvent e) {
      return e instanceof ClusterEvent.UnreachableMember u ? u.member() : ((ClusterEvent.ReachableMember) e).member();
    }
  }
}
