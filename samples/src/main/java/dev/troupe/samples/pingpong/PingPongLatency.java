package dev.troupe.samples.pingpong;

import static dev.troupe.samples.pingpong.Studies.fmt;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Durations;
import dev.troupe.samples.Sample;
import java.awt.Font;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The latency study: one pinger/ponger pair with one message in flight, its round-trip
 * percentiles and the CPU each round trip costs, on the affinity pool at idle CPU levels 1, 5 and
 * 10 and on the fork-join and thread-pool executors; prints a table and draws a PNG chart.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar pingpong-latency --duration 3s --out pingpong-latency.png
 * </pre>
 *
 * Each configuration runs in a fresh actor system: a warm-up, then the measured round trips. The
 * pinger sends the next ping only when the pong is back, so a round trip includes waking the idle
 * thread that the message goes to: this is what {@code idle-cpu-level} trades CPU for. The CPU
 * column is the whole process's CPU time over the measured time (idle spinning included, which is
 * the point) divided by the round trips. For comparable numbers over many runs use {@code
 * RoundTripLatency} in the JMH suite ({@code bench}).
 */
@Command(
    name = PingPongLatency.NAME,
    description = "round-trip latency percentiles and CPU per round trip, per idle CPU level and executor; PNG chart")
public final class PingPongLatency extends Sample {
  static final String NAME = "pingpong-latency";

  @Option(names = "--duration", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "3s",
      description = "measured time per configuration, e.g. 500ms or 3s (default ${DEFAULT-VALUE})")
  private Duration duration;

  @Option(names = "--warm-up", paramLabel = "TIME", converter = Durations.Converter.class, defaultValue = "1s",
      description = "warm-up time per configuration (default ${DEFAULT-VALUE})")
  private Duration warmUp;

  @Option(names = "--out", paramLabel = "PATH", description = "the PNG chart to write (default ${DEFAULT-VALUE})")
  private Path png = Path.of(NAME + ".png");

  /** The configurations measured, in the table's order. */
  static final List<Setup> SETUPS =
      List.of(
          new Setup("affinity idle-cpu-level 1", "affinity", 1),
          new Setup("affinity idle-cpu-level 5", "affinity", 5),
          new Setup("affinity idle-cpu-level 10", "affinity", 10),
          new Setup("fork-join", "fork-join", 0),
          new Setup("thread-pool", "thread-pool", 0));

  /**
   * One configuration.
   *
   * @param label its row in the table
   * @param executor affinity | fork-join | thread-pool
   * @param idleCpuLevel the affinity pool's {@code idle-cpu-level}; 0 for the other executors
   */
  record Setup(String label, String executor, int idleCpuLevel) {
    Config config() {
      Config executorSection = PingPong.dispatcherConfig(5, executor);
      if (idleCpuLevel == 0) {
        return executorSection;
      }
      return ConfigFactory.parseString(
              Studies.DISPATCHER + ".affinity-pool-executor.idle-cpu-level = " + idleCpuLevel)
          .withFallback(executorSection);
    }
  }

  /**
   * What one configuration measured.
   *
   * @param setup the configuration
   * @param roundTrips round trips in the measured time
   * @param histogram their times in nanoseconds
   * @param cpuNanos process CPU time over the measured time
   * @param wallNanos the measured time
   */
  record Row(Setup setup, long roundTrips, Histogram histogram, long cpuNanos, long wallNanos) {
    double us(double percentile) {
      return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    double maxUs() {
      return histogram.getMaxValue() / 1000.0;
    }

    double cpuNanosPerRoundTrip() {
      return (double) cpuNanos / roundTrips;
    }
  }

  /** One measured stretch: round trips until the deadline, then the count. */
  private record Phase(Histogram histogram, long deadline, CompletableFuture<Long> done) {}

  /** Sends a ping only when the previous pong is back, and times each round trip. */
  static final class Pinger extends AbstractActor {
    private final ActorRef ponger;
    private Phase phase;
    private long sentAt;
    private long count;

    Pinger(ActorRef ponger) {
      this.ponger = ponger;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals(PingPong.Ball.PONG, b -> {
            long now = System.nanoTime();
            phase.histogram().recordValue(now - sentAt);
            count++;
            if (now - phase.deadline() < 0) {
              sentAt = System.nanoTime();
              ponger.tell(PingPong.Ball.PING, getSelf());
            } else {
              phase.done().complete(count);
            }
          })
          .match(Phase.class, p -> {
            phase = p;
            count = 0;
            sentAt = System.nanoTime();
            ponger.tell(PingPong.Ball.PING, getSelf());
          })
          .build();
    }
  }

  @Override
  protected int run(PrintStream out) throws Exception {
    Studies.Times times = new Studies.Times(
        within("--warm-up", warmUp, Studies.SHORTEST, Studies.LONGEST),
        within("--duration", duration, Studies.SHORTEST, Studies.LONGEST));
    Studies.headless();
    out.println(fmt("%s: one pinger/ponger pair, one message in flight, %d cores; per configuration a fresh system, %s",
        NAME, Runtime.getRuntime().availableProcessors(), times));
    List<Row> rows = new ArrayList<>();
    for (Setup s : SETUPS) {
      rows.add(measure(s, times));
    }
    printTable(rows, out);
    Studies.writePng(chart(rows), png);
    out.println("chart: " + png.toAbsolutePath());
    return 0;
  }

  /**
   * Runs one configuration in a fresh system.
   *
   * @param setup the configuration
   * @param times how long unmeasured round trips go on first, then measured ones
   * @return what was measured
   * @throws Exception on failure
   */
  static Row measure(Setup setup, Studies.Times times) throws Exception {
    ActorSystem system = ActorSystem.create(NAME, setup.config());
    try {
      ActorRef ponger =
          system.actorOf(Props.create(PingPong.Ponger.class).withDispatcher(Studies.DISPATCHER), "ponger");
      ActorRef pinger =
          system.actorOf(Props.create(Pinger.class, ponger).withDispatcher(Studies.DISPATCHER), "pinger");
      roundTrips(pinger, new Histogram(3), times.warmUp());
      Histogram histogram = new Histogram(3);
      long cpu0 = Studies.processCpuNanos();
      long t0 = System.nanoTime();
      long n = roundTrips(pinger, histogram, times.measured());
      long t1 = System.nanoTime();
      long cpu1 = Studies.processCpuNanos();
      return new Row(setup, n, histogram, cpu1 - cpu0, t1 - t0);
    } finally {
      Studies.stop(system);
    }
  }

  /** Round trips for the given time; the pinger fills the histogram (read after the future). */
  private static long roundTrips(ActorRef pinger, Histogram histogram, Duration d) throws Exception {
    CompletableFuture<Long> done = new CompletableFuture<>();
    pinger.tell(new Phase(histogram, System.nanoTime() + d.toNanos(), done), ActorRef.noSender());
    return done.get(d.toMillis() + 30_000, TimeUnit.MILLISECONDS);
  }

  private static void printTable(List<Row> rows, PrintStream out) {
    out.println();
    out.println("| configuration | round trips | p50 us | p90 us | p99 us | p99.9 us | max us | CPU ns per round trip | cores busy |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Row r : rows) {
      out.println(fmt("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %.2f |",
          r.setup().label(), r.roundTrips(), r.us(50), r.us(90), r.us(99), r.us(99.9), r.maxUs(),
          r.cpuNanosPerRoundTrip(), (double) r.cpuNanos() / r.wallNanos()));
    }
    out.println();
  }

  /** Percentiles per configuration as grouped bars on a log scale; the CPU per round trip in the label. */
  private static CategoryChart chart(List<Row> rows) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(Studies.WIDTH)
            .height(Studies.HEIGHT)
            .title("Troupe round trip, one message in flight (" + Runtime.getRuntime().availableProcessors() + " cores)")
            .xAxisTitle("executor/idle-cpu-level: CPU per round trip")
            .yAxisTitle("round trip, microseconds (log scale)")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(LegendLayout.Horizontal);
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    chart.getStyler().setXAxisLabelRotation(0);
    chart.getStyler().setAvailableSpaceFill(0.8);
    chart.getStyler().setOverlapped(false);
    List<String> labels = new ArrayList<>();
    for (Row r : rows) {
      Setup s = r.setup();
      String name = s.idleCpuLevel() > 0 ? "affinity/" + s.idleCpuLevel() : s.executor();
      labels.add(fmt("%s: %s", name, cpu(r.cpuNanosPerRoundTrip())));
    }
    double[] percentiles = {50, 90, 99, 99.9};
    String[] names = {"p50", "p90", "p99", "p99.9"};
    for (int i = 0; i < percentiles.length; i++) {
      List<Double> ys = new ArrayList<>();
      for (Row r : rows) {
        ys.add(Math.max(0.01, r.us(percentiles[i])));
      }
      chart.addSeries(names[i], labels, ys);
    }
    List<Double> max = new ArrayList<>();
    double lowest = Double.MAX_VALUE;
    for (Row r : rows) {
      max.add(Math.max(0.01, r.maxUs()));
      lowest = Math.min(lowest, Math.max(0.01, r.us(50)));
    }
    chart.addSeries("max", labels, max);
    // Bars rise from the axis' foot (a log axis has no zero): the power of ten at or below half
    // the lowest p50, so that no bar is flat.
    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest / 2))));
    return chart;
  }

  private static String cpu(double nanos) {
    return nanos >= 10_000 ? fmt("%.0f us", nanos / 1000) : fmt("%.0f ns", nanos);
  }
}
