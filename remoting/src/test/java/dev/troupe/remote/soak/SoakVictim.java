package dev.troupe.remote.soak;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The node under attack in {@link RemoteSoakTest}, in a JVM of its own (small heap, low file
 * descriptor limit). Its configuration comes from {@code -D} system properties (the test passes
 * remoting on 127.0.0.1, port 0, and whatever {@code troupe.soak.victim.*} names). It hosts {@code
 * /user/echo} (answers a string with the same string), {@code /user/watched} (ignores everything;
 * the legitimate peer watches it) and {@code /user/fresh-0 …} (echoes; stop on {@code "stop"}),
 * prints {@value #ADDRESS_LINE} and its address, then every second a status line:
 *
 * <pre>
 *   soak-status heap=&lt;bytes used now&gt; live=&lt;bytes used after the last forced GC&gt;
 *       fds=&lt;open file descriptors, -1 if they cannot be counted&gt; threads=&lt;live threads&gt;
 *       io=&lt;live threads named *-remote-io-*&gt;
 * </pre>
 *
 * and lives until its standard input closes. Arguments: the number of fresh actors, and the seconds
 * between forced collections (the "live" figure: what survives a full GC).
 */
public final class SoakVictim {
  static final String SYSTEM = "soak-victim";
  static final String ADDRESS_LINE = "soak-victim-address ";
  static final String STATUS_LINE = "soak-status ";

  private SoakVictim() {}

  /** Answers a string with itself; stops on "stop". */
  public static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("stop", s -> getContext().stop(getSelf()))
          .match(String.class, s -> getSender().tell(s, getSelf()))
          .build();
    }
  }

  /** Ignores everything. */
  public static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {}).build();
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int fresh = Integer.parseInt(args[0]);
    long gcEveryMs = Long.parseLong(args[1]) * 1000;
    ActorSystem system = ActorSystem.create(SYSTEM, ConfigFactory.load());
    system.actorOf(Props.create(Echo.class, Echo::new), "echo");
    system.actorOf(Props.create(Idle.class, Idle::new), "watched");
    for (int i = 0; i < fresh; i++) {
      system.actorOf(Props.create(Echo.class, Echo::new), "fresh-" + i);
    }
    System.out.println(ADDRESS_LINE + system.address());
    System.out.flush();
    Thread status = new Thread(() -> report(gcEveryMs), "soak-status");
    status.setDaemon(true);
    status.start();
    while (System.in.read() >= 0) {
      // until the parent closes the pipe
    }
    system.terminate();
  }

  private static void report(long gcEveryMs) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long live = -1;
    long lastGc = 0;
    while (true) {
      long now = System.currentTimeMillis();
      if (now - lastGc >= gcEveryMs) {
        System.gc(); // what survives a full collection: the live set, the figure that must stay flat
        live = memory.getHeapMemoryUsage().getUsed();
        lastGc = now;
      }
      long io = 0;
      int threads = 0;
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        threads++;
        if (t.getName().contains("-remote-io-") && t.isAlive()) {
          io++;
        }
      }
      System.out.println(
          String.format(
              Locale.ROOT,
              "%sheap=%d live=%d fds=%d threads=%d io=%d",
              STATUS_LINE,
              memory.getHeapMemoryUsage().getUsed(),
              live,
              openFds(),
              threads,
              io));
      System.out.flush();
      try {
        Thread.sleep(1_000); // the status line's period, not a wait for anything
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static long openFds() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count() - 1; // less the one this listing holds
    } catch (IOException | RuntimeException e) {
      return -1; // no descriptor left to open the directory with, or no /proc
    }
  }
}
