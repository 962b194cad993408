package dev.troupe.remote.soak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The fuzz and soak harness of the remoting transport: a victim node ({@link SoakVictim}) in a JVM
 * of its own with a small heap ({@code -Xmx128m}) and few file descriptors ({@code ulimit -n
 * 256}), a {@link LegitimatePeer} in this JVM asking it throughout, and {@link Adversary
 * adversaries} attacking it at the same time, each bounded in rate and count, for a bounded time.
 *
 * <p>The run: the victim starts; the legitimate peer asks alone for {@code troupe.soak.warmup}
 * (the baseline of the victim's live heap and file descriptors); the adversaries attack for {@code
 * troupe.soak.duration}; the peer stops and collects the answers still on their way. The verdict,
 * every item of which must hold:
 *
 * <ol>
 *   <li>every legitimate ask answered, with its own answer, within {@code troupe.soak.ask-timeout}
 *       (none lost: a loss here is a message lost between well-behaved peers);
 *   <li>the 99th percentile of their latency at most {@code troupe.soak.max-p99} (a stalled IO
 *       thread shows here first);
 *   <li>every once-a-second lookup of an actor never named before answered, and its death heard;
 *   <li>no {@code Terminated} for the watched actor, which never stops;
 *   <li>the victim's live heap (after a forced full GC) late in the run at most {@code
 *       troupe.soak.heap-margin-mib} above its baseline, and its open file descriptors at most
 *       {@code troupe.soak.fd-margin} above theirs (never so many that they cannot be counted);
 *   <li>its {@code -remote-io-} threads all alive, no {@code Error} in its output;
 *   <li>a peer that never talked to it before looks up and asks {@code /user/echo} at the end.
 * </ol>
 *
 * A summary table is printed (and written to {@code target/remote-soak-summary.txt}) whatever the
 * verdict. The suite runs a short version (20 s) with the adversaries that the node survives
 * today ({@link SoakSettings#SUITE_ADVERSARIES}); {@code scripts/remote-soak.sh} runs the long one.
 * Every knob is a system property, read by {@link SoakSettings}:
 *
 * <pre>
 *   troupe.soak.duration=20s        troupe.soak.warmup=4s           troupe.soak.seed=&lt;now&gt;
 *   troupe.soak.adversaries=random,frames   (or all, none, any of {@link Adversary#NAMES})
 *   troupe.soak.ask-rate=50         troupe.soak.ask-timeout=5s      troupe.soak.max-p99=1s
 *   troupe.soak.victim-heap=128m    troupe.soak.victim-fd-limit=256
 *   troupe.soak.heap-margin-mib=24  troupe.soak.fd-margin=64
 *   troupe.soak.victim.&lt;key&gt;=&lt;value&gt;   the victim's configuration, e.g.
 *       -Dtroupe.soak.victim.troupe.remote.advanced.handshake-timeout=2s
 *   troupe.soak.&lt;adversary&gt;.rate, .count   operations a second, in all
 *   troupe.soak.selection.depth=24  troupe.soak.nested.bytes  troupe.soak.churn.idle=240
 * </pre>
 */
class RemoteSoakTest {
  /** A remote node on 127.0.0.1, any free port: the configuration of the harness's own systems. */
  static final String PEER_CONFIG =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n";

  @Test
  void aNodeUnderAttackLosesNothingForItsLegitimatePeerAndStaysFlat() throws Exception {
    SoakSettings s = SoakSettings.fromSystemProperties();
    int freshActors = (int) Math.min(5_000, s.warmup().plus(s.duration()).toSeconds() + 10);
    long gcEverySeconds = Math.max(1, Math.min(10, s.warmup().toSeconds() / 2));
    List<ActorSystem> systems = new ArrayList<>();
    List<Adversary> adversaries = new ArrayList<>();
    try (VictimProcess victim = VictimProcess.start(s, freshActors, gcEverySeconds)) {
      String address = victim.awaitAddress(Duration.ofSeconds(60));
      ActorSystem legitimate = peer("soak-legitimate", systems);
      ActorSystem attacker =
          s.adversaries().contains("selection") || s.adversaries().contains("traced") ? peer("soak-attacker", systems) : null;
      Adversary.Target target =
          new Adversary.Target(
              Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)),
              address,
              legitimate.address().toString(),
              attacker);
      for (String name : s.adversaries()) {
        adversaries.add(Adversary.create(name, target, s.seed()));
      }

      try (LegitimatePeer peer = new LegitimatePeer(legitimate, address, s.askTimeout(), freshActors)) {
        peer.start(s.askRate());
        long warmStart = System.nanoTime();
        phase(s.warmup()); // the legitimate peer alone: the baseline

        long attackStart = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (Adversary a : adversaries) {
          a.until(attackStart + s.duration().toNanos());
          Thread t = new Thread(a, "soak-adversary-" + a.name);
          t.setDaemon(true);
          t.start();
          threads.add(t);
        }
        for (Thread t : threads) {
          t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(attackStart + s.duration().toNanos() - System.nanoTime()) + 15_000));
          if (t.isAlive()) {
            t.interrupt(); // still running past its deadline (a socket timeout pending)
            t.join(5_000);
          }
        }
        phase(Duration.ofNanos(attackStart + s.duration().toNanos() - System.nanoTime())); // adversaries with a count may end early
        long attackEnd = System.nanoTime();
        peer.stopAndDrain();

        String freshPeer;
        try {
          freshPeer = freshPeerAsks(peer("soak-fresh-peer", systems), address, s.askTimeout());
        } finally {
          adversaries.forEach(Adversary::close); // only now: held connections count against the new peer
        }
        Verdict v = new Verdict(s, victim, peer, adversaries, warmStart, attackStart, attackEnd, freshPeer);
        String summary = v.summary();
        System.out.println(summary);
        try {
          Files.writeString(Path.of("target", "remote-soak-summary.txt"), summary);
        } catch (IOException notWritten) {
          // printed above
        }
        assertTrue(v.violations.isEmpty(), summary);
      }
    } finally {
      adversaries.forEach(Adversary::close); // again, if the run ended early: closing twice is harmless
      systems.forEach(TestKit::shutdownActorSystem);
    }
  }

  private static ActorSystem peer(String name, List<ActorSystem> systems) {
    ActorSystem system = ActorSystem.create(name, ConfigFactory.parseString(PEER_CONFIG).withFallback(ConfigFactory.load()));
    systems.add(system);
    return system;
  }

  /** Waits out a phase of the scenario (a stretch of time, not a wait for anything). */
  private static void phase(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    for (long left = d.toNanos(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  /** @return "ok", or what went wrong when a new peer looked {@code /user/echo} up and asked it */
  private static String freshPeerAsks(ActorSystem fresh, String victim, Duration timeout) {
    try {
      ActorRef echo = fresh.actorSelection(victim + "/user/echo").resolveOne(timeout.multipliedBy(2)).toCompletableFuture().get();
      Object answer = Patterns.ask(echo, "hello from a new peer", timeout).toCompletableFuture().get();
      return "hello from a new peer".equals(answer) ? "ok" : "answered " + answer;
    } catch (Exception e) {
      return "failed: " + (e.getCause() != null ? e.getCause() : e);
    }
  }

  /** The assertions of the run, and its summary table. */
  private static final class Verdict {
    final List<String> violations = new ArrayList<>();
    private final StringBuilder table = new StringBuilder();

    Verdict(
        SoakSettings s,
        VictimProcess victim,
        LegitimatePeer peer,
        List<Adversary> adversaries,
        long warmStart,
        long attackStart,
        long attackEnd,
        String freshPeer) {
      row("settings", "duration " + s.duration() + ", warm-up " + s.warmup() + ", seed " + s.seed()
          + ", ask rate " + s.askRate() + "/s, victim -Xmx" + s.victimHeap() + ", ulimit -n " + s.victimFdLimit());
      row("victim config", s.victimConfig().isEmpty() ? "(defaults)" : s.victimConfig().toString());
      row("adversaries", s.adversaries().isEmpty() ? "(none)" : String.join(",", s.adversaries()));
      table.append('\n');

      long lost = peer.sent.get() - peer.answered.get();
      row("asks sent", peer.sent.get());
      row("asks answered", peer.answered.get());
      row("asks failed", peer.failed.get() + " (timed out or refused)");
      row("asks wrong answer", peer.wrong.get());
      row("latency p50 / p99 / max", String.format(Locale.ROOT, "%.1f / %.1f / %.1f ms",
          peer.latencyMs(0.5), peer.latencyMs(0.99), peer.latencyMs(1.0)));
      check(lost == 0, lost + " of " + peer.sent.get() + " legitimate asks lost or answered wrongly");
      check(peer.latencyMs(0.99) <= s.maxP99().toMillis(),
          String.format(Locale.ROOT, "latency p99 %.1f ms above %s", peer.latencyMs(0.99), s.maxP99()));
      row("fresh lookups ok / sent", peer.freshAnswered.get() + " / " + peer.freshSent.get());
      row("deaths heard / expected", peer.deathsHeard.get() + " / " + peer.deathsExpected.get());
      row("false Terminated", peer.falseTerminated.get());
      check(peer.freshFailed.get() == 0 && peer.freshAnswered.get() == peer.freshSent.get(),
          (peer.freshSent.get() - peer.freshAnswered.get()) + " lookups of actors never named before failed");
      check(peer.deathsHeard.get() == peer.deathsExpected.get(),
          (peer.deathsExpected.get() - peer.deathsHeard.get()) + " deaths of watched actors never heard");
      check(peer.falseTerminated.get() == 0, peer.falseTerminated.get() + " false Terminated of an actor that lives");
      table.append('\n');

      long lateFrom = attackEnd - clamp(s.duration().dividedBy(3), Duration.ofSeconds(5), Duration.ofSeconds(60)).toNanos();
      List<VictimProcess.Status> base = victim.samples(warmStart, attackStart);
      List<VictimProcess.Status> late = victim.samples(lateFrom, attackEnd);
      List<VictimProcess.Status> all = victim.samples(warmStart, Long.MAX_VALUE);
      OptionalLong baseLive = max(base, VictimProcess.Status::live);
      OptionalLong lateLive = max(late, VictimProcess.Status::live);
      OptionalLong baseFds = max(base, VictimProcess.Status::fds);
      OptionalLong lateFds = max(late, VictimProcess.Status::fds);
      row("live heap base / late max", mib(baseLive) + " / " + mib(lateLive) + " MiB (margin " + s.heapMarginMiB() + ")");
      row("fds base / late max / max", text(baseFds) + " / " + text(lateFds) + " / " + text(max(all, VictimProcess.Status::fds))
          + " (margin " + s.fdMargin() + ")");
      check(baseLive.isPresent() && lateLive.isPresent(), "no heap figures from the victim (base " + base.size() + ", late " + late.size() + " samples)");
      if (baseLive.isPresent() && lateLive.isPresent()) {
        check(lateLive.getAsLong() - baseLive.getAsLong() <= s.heapMarginMiB() << 20,
            "victim's live heap grew from " + mib(baseLive) + " to " + mib(lateLive) + " MiB");
      }
      check(all.stream().noneMatch(st -> st.fds() < 0), "the victim ran out of file descriptors (it could not count them)");
      if (baseFds.isPresent() && lateFds.isPresent()) {
        check(lateFds.getAsLong() - baseFds.getAsLong() <= s.fdMargin(),
            "victim's open fds grew from " + baseFds.getAsLong() + " to " + lateFds.getAsLong());
      }
      VictimProcess.Status last = victim.last();
      long peakIo = max(all, VictimProcess.Status::io).orElse(0);
      row("remote-io threads peak / last", peakIo + " / " + (last == null ? "-" : last.io()));
      row("threads last", last == null ? "-" : last.threads());
      check(peakIo > 0 && last != null && last.io() >= peakIo, "a remote-io thread of the victim died");
      check(last != null && System.nanoTime() - last.atNanos() < TimeUnit.SECONDS.toNanos(5), "the victim's status lines stopped");
      check(victim.isAlive(), "the victim's JVM ended");
      row("victim log lines", victim.otherLines());
      row("victim Error lines", victim.errorLines());
      check(victim.errorLines() == 0,
          "the victim reported an Error " + victim.errorLines() + " times, first: " + (victim.errors().isEmpty() ? "" : victim.errors().get(0)));
      row("new peer at the end", freshPeer);
      check(freshPeer.equals("ok"), "a new peer could not use the victim at the end: " + freshPeer);
      table.append('\n');

      table.append(String.format(Locale.ROOT, "%-12s %10s %10s %10s  %s%n", "adversary", "ops", "refused", "io errors", ""));
      for (Adversary a : adversaries) {
        table.append(String.format(Locale.ROOT, "%-12s %10d %10d %10d  %s%n", a.name, a.ops.get(), a.refused.get(), a.ioErrors.get(), a.detail()));
        String seen = a.violation();
        check(seen == null, a.name + ": " + seen);
        check(a.failure() == null, a.name + " ended early, a harness bug: " + a.failure());
      }
      table.append('\n');
      peer.problems().forEach(p -> table.append("peer: ").append(p).append('\n'));
      victim.errors().forEach(e -> table.append("victim error: ").append(e).append('\n'));
      List<String> lines = victim.lastLines();
      lines.subList(Math.max(0, lines.size() - (violations.isEmpty() ? 5 : 10)), lines.size())
          .forEach(l -> table.append("victim log: ").append(l).append('\n'));
    }

    private void row(String name, Object value) {
      table.append(String.format(Locale.ROOT, "%-30s %s%n", name, value));
    }

    private void check(boolean holds, String violation) {
      if (!holds) {
        violations.add(violation);
      }
    }

    String summary() {
      StringBuilder b = new StringBuilder("\n==== remote soak: ");
      b.append(violations.isEmpty() ? "PASSED" : "FAILED (" + violations.size() + ")").append(" ====\n");
      violations.forEach(v -> b.append("  VIOLATION: ").append(v).append('\n'));
      return b.append('\n').append(table).toString();
    }

    private static OptionalLong max(List<VictimProcess.Status> samples, ToLongFunction<VictimProcess.Status> f) {
      return samples.stream().mapToLong(f).filter(v -> v >= 0).max();
    }

    private static String mib(OptionalLong bytes) {
      return bytes.isPresent() ? String.format(Locale.ROOT, "%.1f", bytes.getAsLong() / 1048576.0) : "-";
    }

    private static String text(OptionalLong v) {
      return v.isPresent() ? String.valueOf(v.getAsLong()) : "-";
    }

    private static Duration clamp(Duration d, Duration min, Duration max) {
      return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
    }
  }
}
