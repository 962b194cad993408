package dev.troupe.samples.pingpong;

import static dev.troupe.samples.pingpong.Studies.fmt;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Durations;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Messages per second of ping-ponging actor pairs, swept over the dispatcher's {@code throughput}
 * setting and over the number of pairs, for each executor; prints two tables and draws a PNG chart
 * of each sweep.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar throughput-sweep --duration 300ms --out-dir .
 * </pre>
 *
 * Each pair keeps several messages in flight ({@code --in-flight}), so an actor usually finds more
 * than one in its mailbox and the {@code throughput} setting (how many it processes before giving
 * its thread back) decides how often it is rescheduled. Every point runs in a fresh actor system:
 * a warm-up, then the messages counted over the measured time. The points are short, so a busy
 * machine shows in the lines; for numbers to compare use {@code PingPongThroughput} in the JMH
 * suite ({@code bench}).
 */
@Command(
    name = ThroughputSweep.NAME,
    description = "messages/s versus the dispatcher's throughput and versus actor pairs, per executor; PNG charts")
public final class ThroughputSweep extends Sample {
  static final String NAME = "throughput-sweep";
  private static final int CORES = Runtime.getRuntime().availableProcessors();

  /** The {@code throughput} values of the first sweep. */
  static final List<Integer> THROUGHPUTS = List.of(1, 2, 5, 10, 20, 50, 100, 200, 1000);

  @Option(names = "--duration", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "300ms",
      description = "measured time per point, e.g. 300ms or 2s (default ${DEFAULT-VALUE})")
  private Duration duration;

  @Option(names = "--warm-up", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "150ms",
      description = "warm-up time per point (default ${DEFAULT-VALUE})")
  private Duration warmUp;

  @Option(names = "--pairs", paramLabel = "N",
      description = "actor pairs in the throughput sweep, 1 per core (default ${DEFAULT-VALUE})")
  private int pairs = CORES;

  @Option(names = "--throughput", paramLabel = "N",
      description = "the dispatcher's throughput in the pairs sweep (default ${DEFAULT-VALUE})")
  private int throughput = 5;

  @Option(names = "--max-pairs", paramLabel = "N",
      description = "the pairs sweep doubles from 1 up to this, 4 per core (default ${DEFAULT-VALUE})")
  private int maxPairs = 4 * CORES;

  @Option(names = "--in-flight", paramLabel = "N", description = "messages in flight per pair (default ${DEFAULT-VALUE})")
  private int inFlight = 100;

  @Option(names = "--out-dir", paramLabel = "DIR",
      description = "folder for " + NAME + "-throughput.png and " + NAME + "-pairs.png (default ${DEFAULT-VALUE})")
  private Path dir = Path.of(".");

  /**
   * One sweep's measurements.
   *
   * @param x what was varied, for the table's header and the chart's axis
   * @param xs its values
   * @param messagesPerSecond per executor, one value per {@code xs}
   */
  record Sweep(String x, List<Integer> xs, Map<String, List<Double>> messagesPerSecond) {}

  @Override
  protected int run(PrintStream out) throws Exception {
    Studies.Times times = new Studies.Times(
        within("--warm-up", warmUp, Studies.SHORTEST, Studies.LONGEST),
        within("--duration", duration, Studies.SHORTEST, Studies.LONGEST));
    atLeast("--pairs", pairs, 1);
    atLeast("--throughput", throughput, 1);
    atLeast("--max-pairs", maxPairs, 1);
    atLeast("--in-flight", inFlight, 1);
    Studies.headless();
    out.println(fmt("%s: %d cores, %d messages in flight per pair; per point a fresh system, %s",
        NAME, CORES, inFlight, times));

    Sweep byThroughput = new Sweep("throughput", THROUGHPUTS, new LinkedHashMap<>());
    for (String e : Studies.EXECUTORS) {
      byThroughput.messagesPerSecond().put(e, new ArrayList<>());
    }
    for (int t : THROUGHPUTS) {
      for (String e : Studies.EXECUTORS) {
        byThroughput.messagesPerSecond().get(e).add(measure(e, t, pairs, inFlight, times));
      }
    }
    print(byThroughput, fmt("by the dispatcher's throughput, %d pairs", pairs), out);

    Sweep byPairs = new Sweep("pairs", pairCounts(maxPairs), new LinkedHashMap<>());
    for (String e : Studies.EXECUTORS) {
      byPairs.messagesPerSecond().put(e, new ArrayList<>());
    }
    for (int p : byPairs.xs()) {
      for (String e : Studies.EXECUTORS) {
        byPairs.messagesPerSecond().get(e).add(measure(e, throughput, p, inFlight, times));
      }
    }
    print(byPairs, fmt("by actor pairs, throughput %d", throughput), out);

    Path first = dir.resolve(NAME + "-throughput.png");
    Studies.writePng(
        chart(byThroughput, fmt("Troupe messages/s by the dispatcher's throughput (%d pairs, %d cores)", pairs, CORES),
            "throughput (messages an actor processes per scheduling)"),
        first);
    Path second = dir.resolve(NAME + "-pairs.png");
    Studies.writePng(
        chart(byPairs, fmt("Troupe messages/s by actor pairs (throughput %d, %d cores)", throughput, CORES),
            "actor pairs"),
        second);
    out.println("charts: " + first.toAbsolutePath() + ", " + second.toAbsolutePath());
    return 0;
  }

  /** 1, 2, 4, ... doubling up to {@code max}, and {@code max} itself. */
  static List<Integer> pairCounts(int max) {
    List<Integer> counts = new ArrayList<>();
    for (int p = 1; p < max; p *= 2) {
      counts.add(p);
    }
    counts.add(max);
    return counts;
  }

  /**
   * Runs one point in a fresh system.
   *
   * @param executor affinity | fork-join | thread-pool
   * @param throughput the dispatcher's throughput
   * @param pairs actor pairs
   * @param inFlight messages in flight per pair
   * @param times unmeasured time first, then the measured time
   * @return messages (pings and pongs) per second over the measured time
   * @throws Exception on failure
   */
  static double measure(String executor, int throughput, int pairs, int inFlight, Studies.Times times)
      throws Exception {
    ActorSystem system = ActorSystem.create(NAME, PingPong.dispatcherConfig(throughput, executor));
    PingPong.Run run = new PingPong.Run();
    List<AtomicLong> counters = new ArrayList<>();
    try {
      for (int i = 0; i < pairs; i++) {
        ActorRef ponger =
            system.actorOf(Props.create(PingPong.Ponger.class).withDispatcher(Studies.DISPATCHER), "ponger-" + i);
        AtomicLong pongs = new AtomicLong();
        counters.add(pongs);
        ActorRef pinger =
            system.actorOf(
                Props.create(PingPong.Pinger.class, ponger, run, pongs).withDispatcher(Studies.DISPATCHER),
                "pinger-" + i);
        pinger.tell(inFlight, ActorRef.noSender());
      }
      sleepUntil(System.nanoTime() + times.warmUp().toNanos());
      long c0 = total(counters);
      long t0 = System.nanoTime();
      sleepUntil(t0 + times.measured().toNanos());
      long c1 = total(counters);
      long t1 = System.nanoTime();
      return 2.0 * (c1 - c0) * 1e9 / (t1 - t0);
    } finally {
      run.running = false;
      Studies.stop(system);
    }
  }

  private static void sleepUntil(long deadline) throws InterruptedException {
    long wait;
    while ((wait = deadline - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private static long total(List<AtomicLong> counters) {
    long t = 0;
    for (AtomicLong c : counters) {
      t += c.get();
    }
    return t;
  }

  private static void print(Sweep s, String title, PrintStream out) {
    out.println();
    out.println("messages/s (millions) " + title);
    StringBuilder header = new StringBuilder("| " + s.x() + " |");
    StringBuilder rule = new StringBuilder("|---:|");
    for (String e : s.messagesPerSecond().keySet()) {
      header.append(' ').append(e).append(" |");
      rule.append("---:|");
    }
    out.println(header);
    out.println(rule);
    for (int i = 0; i < s.xs().size(); i++) {
      StringBuilder row = new StringBuilder("| " + s.xs().get(i) + " |");
      for (List<Double> values : s.messagesPerSecond().values()) {
        row.append(fmt(" %.2f |", values.get(i) / 1e6));
      }
      out.println(row);
    }
    out.println();
  }

  /**
   * One line per executor, millions of messages/s against the swept values, spaced evenly (the
   * values roughly double from one to the next, so this reads like a log axis with every value
   * labelled).
   */
  private static CategoryChart chart(Sweep s, String title, String xTitle) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(Studies.WIDTH)
            .height(Studies.HEIGHT)
            .title(title)
            .xAxisTitle(xTitle)
            .yAxisTitle("million messages/s")
            .build();
    chart.getStyler().setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line);
    chart.getStyler().setOverlapped(true); // every executor's point at its x, not side by side
    chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
    chart.getStyler().setYAxisMin(0.0);
    List<String> xs = new ArrayList<>();
    for (int x : s.xs()) {
      xs.add(Integer.toString(x));
    }
    for (Map.Entry<String, List<Double>> e : s.messagesPerSecond().entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (double v : e.getValue()) {
        ys.add(v / 1e6);
      }
      chart.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
    }
    return chart;
  }
}
