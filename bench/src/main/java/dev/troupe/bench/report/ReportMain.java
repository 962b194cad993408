package dev.troupe.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns JMH JSON results into {@code RESULTS.md} with tables and PNG charts.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.troupe.bench.report.ReportMain \
 *     --out bench/results --command "what produced the JSON" raw-1.json [raw-2.json ...]
 * </pre>
 *
 * Several JSON files (one per JMH run) are merged into {@code <out>/raw.json}; a later result for
 * the same benchmark and parameters replaces an earlier one. For benchmarks with an {@code impl}
 * parameter of {@code troupe} / {@code pekko} / {@code pekko-tuned} each table row is one
 * combination of the other parameters, with columns Troupe | Pekko | Pekko-tuned | Troupe/Pekko |
 * Troupe/Pekko-tuned; cells show the mean score and the min–max over measurement iterations. Other
 * benchmarks (RoundTripLatency, ExecutorAlone) get one row per parameter combination and a column
 * per metric.
 */
public final class ReportMain {
  private static final List<String> ORDER =
      List.of(
          "PingPongThroughput",
          "RoundTripLatency",
          "RemotePingPong",
          "ExecutorComparison",
          "ExecutorAlone",
          "ActorCreation",
          "Counting",
          "ThreadRing",
          "Chameneos",
          "Big",
          "ForkJoinThroughput",
          "ForkJoinCreate",
          "RouterOverhead");

  /** Secondary metrics that are the benchmark's real score when present. */
  private static final List<String> HEADLINE_SECONDARY =
      List.of("queries", "messages", "bytesPerActor");

  /** Round-trip percentiles shown beside a comparison's scores, Troupe / Pekko, when present. */
  private static final List<String> LATENCY_COLUMNS = List.of("p50Us", "p99Us");

  private static final Map<String, String> DESCRIPTION = new LinkedHashMap<>();
  private static final Map<String, String> LABEL = new LinkedHashMap<>();

  static {
    describe(
        "PingPongThroughput",
        "messages/s",
        "Pinger/ponger pairs on one dispatcher, `inFlight` pings outstanding per pair; messages"
            + " (pings + pongs) per second.");
    describe(
        "RoundTripLatency",
        "round trips/s",
        "One pair, one message in flight; round-trip percentiles (µs) and CPU per round trip (ns)."
            + " Troupe at idle-cpu-level 1, 5, 10.");
    describe(
        "RemotePingPong",
        "messages/s",
        "Two systems in one JVM, remoting on loopback (Troupe's `remote` provider vs Pekko Artery"
            + " TCP, both with defaults), pinger/ponger pairs across them, `inFlight` pings"
            + " outstanding per pair, 100-byte payload records on Jackson CBOR on both sides;"
            + " messages (one direction each) per second, round-trip p50/p99 in µs.");
    describe(
        "ExecutorComparison",
        "queries/s",
        "4 query/service pairs (HashMap lookup per query), each executor family with 2 threads on"
            + " both frameworks; queries per second.");
    describe(
        "ExecutorAlone",
        "tasks/s",
        "Troupe's executors without actors: self-resubmitting task streams, balanced, one"
            + " stream with 10× the tasks, or one stripe with 10× the streams; tasks per second.");
    describe(
        "ActorCreation",
        "actors/s",
        "A parent creates N children that report from preStart (actors created and started per"
            + " second); retained heap per idle actor.");
    describe(
        "Counting", "increments/s", "Savina count: one producer, one counter, 5 M increments.");
    describe("ThreadRing", "hops/s", "Savina threadring: 100 actors pass one token 2 M hops.");
    describe(
        "Chameneos",
        "meetings/s",
        "Savina chameneos: 100 chameneos, a mall pairing them, 200 k meetings.");
    describe("Big", "pings/s", "Savina big: 120 workers ping random workers, 10 k pings each.");
    describe(
        "ForkJoinThroughput",
        "messages/s",
        "Savina fjthr: 60 actors, 50 k messages each, sin² per message.");
    describe(
        "ForkJoinCreate",
        "actors/s",
        "Savina fjcreate: 80 k actors created, one message each, stopped.");
    describe("RouterOverhead", "jobs/s", "Round-robin pool router vs a direct ref; a balancing pool of four.");
    LABEL.put("ActorCreation.retainedHeapPerIdleActor", "bytes per idle actor (lower is better)");
  }

  private static void describe(String cls, String label, String text) {
    DESCRIPTION.put(cls, text);
    LABEL.put(cls, label);
  }

  private ReportMain() {}

  /**
   * @param args {@code --out DIR [--command TEXT] file.json...}
   * @throws IOException if a file cannot be read or written
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Path out = Paths.get("bench/results");
    String command = null;
    List<Path> inputs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> out = Paths.get(args[++i]);
        case "--command" -> command = args[++i];
        default -> inputs.add(Paths.get(args[i]));
      }
    }
    if (inputs.isEmpty()) {
      System.err.println("usage: ReportMain --out DIR [--command TEXT] results.json...");
      System.exit(2);
    }
    Files.createDirectories(out.resolve("charts"));

    Map<String, Run> byIdentity = new LinkedHashMap<>();
    List<String> rawObjects = new ArrayList<>();
    for (Path in : inputs) {
      String text = Files.readString(in, StandardCharsets.UTF_8).trim();
      if (text.isEmpty()) {
        System.err.println("skipping empty " + in);
        continue;
      }
      Object parsed = Json.parse(text);
      if (!(parsed instanceof List<?> list)) {
        throw new IllegalArgumentException(in + ": not a JMH JSON array");
      }
      for (Object o : list) {
        @SuppressWarnings("unchecked")
        Run r = new Run((Map<String, Object>) o);
        byIdentity.put(r.key() + r.params, r);
      }
      String inner = text.substring(1, text.length() - 1).trim();
      if (!inner.isEmpty()) {
        rawObjects.add(inner);
      }
    }
    Path merged = out.resolve("raw.json");
    boolean onlyMerged =
        inputs.size() == 1 && inputs.get(0).toAbsolutePath().equals(merged.toAbsolutePath());
    if (!onlyMerged) {
      Files.writeString(
          merged, "[\n" + String.join(",\n", rawObjects) + "\n]\n", StandardCharsets.UTF_8);
    }

    Map<String, List<Run>> groups = new LinkedHashMap<>();
    byIdentity.values().stream()
        .sorted(Comparator.comparingInt((Run r) -> orderOf(r.className)).thenComparing(Run::key))
        .forEach(r -> groups.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));

    Charts charts = new Charts(out.resolve("charts"));
    StringBuilder md = new StringBuilder();
    header(md, byIdentity.values(), command);
    summary(md, groups, charts);
    String lastClass = null;
    for (Map.Entry<String, List<Run>> g : groups.entrySet()) {
      Run first = g.getValue().get(0);
      if (!first.className.equals(lastClass)) {
        md.append("\n## ").append(first.className).append("\n\n");
        String d = DESCRIPTION.get(first.className);
        if (d != null) {
          md.append(d).append(" See the class javadoc for the exact work and run command.\n");
        }
        lastClass = first.className;
      }
      md.append("\n### `").append(g.getKey()).append("`\n\n");
      if (isComparison(g.getValue())) {
        comparisonTable(md, g.getKey(), g.getValue());
        for (String chart :
            charts.comparisonCharts(g.getKey(), label(first), g.getValue(), ReportMain::headline)) {
          md.append("\n![").append(chart).append("](charts/").append(chart).append(")\n");
        }
      } else {
        metricTable(md, g.getValue());
        for (String chart : charts.latencyCharts(g.getKey(), g.getValue())) {
          md.append("\n![").append(chart).append("](charts/").append(chart).append(")\n");
        }
      }
    }
    if (!charts.failures().isEmpty()) {
      md.append("\n## Charts not drawn\n\n");
      charts.failures().forEach(f -> md.append("- ").append(f).append('\n'));
    }
    appendNotes(md, out.resolve("notes"));
    Files.writeString(out.resolve("RESULTS.md"), md.toString(), StandardCharsets.UTF_8);
    System.out.println(
        "wrote " + out.resolve("RESULTS.md") + " (" + byIdentity.size() + " results)");
  }

  private static int orderOf(String cls) {
    int i = ORDER.indexOf(cls);
    return i < 0 ? ORDER.size() : i;
  }

  static String label(Run r) {
    String l = LABEL.get(r.key());
    if (l == null) {
      l = LABEL.get(r.className);
    }
    Run.Metric m = headline(r);
    if (l == null) {
      return m.unit();
    }
    return l;
  }

  /** The metric a benchmark is judged by: a known secondary result, else the primary score. */
  static Run.Metric headline(Run r) {
    for (String s : HEADLINE_SECONDARY) {
      Run.Metric m = r.secondary.get(s);
      if (m != null) {
        return m;
      }
    }
    return r.primary;
  }

  static boolean lowerIsBetter(Run r) {
    return r.secondary.containsKey("bytesPerActor") || !r.mode.equals("thrpt");
  }

  private static boolean isComparison(List<Run> runs) {
    for (Run r : runs) {
      if (r.secondary.containsKey("p50Us") && headline(r) == r.primary) {
        return false; // latency results: percentiles per implementation, not one score
      }
      String impl = r.params.get("impl");
      if (impl == null
          || !(impl.equals("troupe") || impl.equals("pekko") || impl.equals("pekko-tuned"))) {
        return false;
      }
    }
    return true;
  }

  private static void header(StringBuilder md, Iterable<Run> runs, String command) {
    Run any = runs.iterator().next();
    Set<String> jvms = new TreeSet<>();
    Set<String> settings = new TreeSet<>();
    Set<String> args = new TreeSet<>();
    for (Run r : runs) {
      jvms.add("JDK " + r.jdk + " (" + r.vm + ")");
      settings.add(r.iterations);
      args.add(String.join(" ", r.jvmArgs));
    }
    md.append("# Troupe vs Apache Pekko: benchmark results\n\n");
    md.append("Generated ")
        .append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
        .append(" by `bench/report.sh` from JMH ")
        .append(any.jmhVersion)
        .append(" JSON (`raw.json` beside this file).\n\n");
    md.append("## Machine\n\n");
    md.append("- CPU: ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" available processors")
        .append(cpuModel())
        .append('\n');
    md.append("- OS: ")
        .append(System.getProperty("os.name"))
        .append(' ')
        .append(System.getProperty("os.version"))
        .append(" (")
        .append(System.getProperty("os.arch"))
        .append(")\n");
    md.append("- Memory: ").append(memory()).append('\n');
    md.append("- JVM: ").append(String.join("; ", jvms)).append('\n');
    md.append("- Forked JVM options: ").append(String.join(" | ", args)).append('\n');
    md.append("- JMH iterations: ").append(String.join("; ", settings)).append("\n\n");
    if (command != null) {
      md.append("## Command\n\n```\n").append(command.strip()).append("\n```\n\n");
    }
    md.append(
        "Reading the tables: throughput scores are means over measurement iterations, with"
            + " (min–max) of the iterations of all forks; Troupe/Pekko > 1 means Troupe is faster (for"
            + " bytes per actor, < 1 means Troupe uses less). Multi-threaded rates change at young"
            + " collections, as the collector reorders long-lived objects and an object one thread"
            + " writes may land on a line another thread reads (actors' objects are not padded), so"
            + " a wide min–max is a phase or fork spread, and differences inside it are noise.\n");
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return ", " + line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return "";
  }

  private static String memory() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/meminfo"))) {
        if (line.startsWith("MemTotal")) {
          long kb = Long.parseLong(line.replaceAll("\\D", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return "unknown";
  }

  private static void summary(StringBuilder md, Map<String, List<Run>> groups, Charts charts) {
    Map<String, double[]> ratios = new LinkedHashMap<>();
    for (Map.Entry<String, List<Run>> g : groups.entrySet()) {
      if (!isComparison(g.getValue())) {
        continue;
      }
      double[] vsPekko = geoMeanRatio(g.getValue(), "pekko");
      double[] vsTuned = geoMeanRatio(g.getValue(), "pekko-tuned");
      if (vsPekko[1] + vsTuned[1] > 0) {
        ratios.put(g.getKey(), new double[] {vsPekko[0], vsPekko[1], vsTuned[0], vsTuned[1]});
      }
    }
    if (ratios.isEmpty()) {
      return;
    }
    md.append(
        "\n"
            + "## Summary\n\n"
            + "Geometric mean over each benchmark's rows of Troupe's score divided by Pekko's (for"
            + " bytes per actor the inverse, so > 1 always favours Troupe); rows = parameter"
            + " combinations where both ran.\n\n");
    md.append(
        "| benchmark | Troupe/Pekko | rows | Troupe/Pekko-tuned | rows |\n"
            + "|---|---:|---:|---:|---:|\n");
    for (Map.Entry<String, double[]> e : ratios.entrySet()) {
      double[] v = e.getValue();
      md.append("| `")
          .append(e.getKey())
          .append("` | ")
          .append(ratio(v[0]))
          .append(" | ")
          .append((int) v[1])
          .append(" | ")
          .append(ratio(v[2]))
          .append(" | ")
          .append((int) v[3])
          .append(" |\n");
    }
    String chart = charts.summaryChart(ratios);
    if (chart != null) {
      md.append("\n![").append(chart).append("](charts/").append(chart).append(")\n");
    }
  }

  private static double[] geoMeanRatio(List<Run> runs, String other) {
    Map<Map<String, String>, Run> troupe = byRow(runs, "troupe");
    Map<Map<String, String>, Run> them = byRow(runs, other);
    double logSum = 0;
    int n = 0;
    for (Map.Entry<Map<String, String>, Run> e : troupe.entrySet()) {
      Run o = them.get(e.getKey());
      if (o == null) {
        continue;
      }
      double t = headline(e.getValue()).score();
      double p = headline(o).score();
      if (t > 0 && p > 0) {
        double r = lowerIsBetter(e.getValue()) ? p / t : t / p;
        logSum += Math.log(r);
        n++;
      }
    }
    return new double[] {n == 0 ? Double.NaN : Math.exp(logSum / n), n};
  }

  static Map<Map<String, String>, Run> byRow(List<Run> runs, String impl) {
    Map<Map<String, String>, Run> m = new LinkedHashMap<>();
    for (Run r : runs) {
      if (impl.equals(r.params.get("impl"))) {
        m.put(r.paramsWithoutImpl(), r);
      }
    }
    return m;
  }

  private static void comparisonTable(StringBuilder md, String key, List<Run> runs) {
    Run first = runs.get(0);
    List<String> names = new ArrayList<>(first.paramsWithoutImpl().keySet());
    Set<Map<String, String>> rows = new LinkedHashSet<>();
    runs.stream().map(Run::paramsWithoutImpl).sorted(ReportMain::compareParams).forEach(rows::add);
    Map<Map<String, String>, Run> t = byRow(runs, "troupe");
    Map<Map<String, String>, Run> p = byRow(runs, "pekko");
    Map<Map<String, String>, Run> pt = byRow(runs, "pekko-tuned");
    md.append("Score: ").append(label(first)).append(".\n\n|");
    for (String n : names) {
      md.append(' ').append(n).append(" |");
    }
    md.append(" Troupe | Pekko | Pekko-tuned | Troupe/Pekko | Troupe/Pekko-tuned |");
    List<String> latencies = new ArrayList<>();
    for (String l : LATENCY_COLUMNS) {
      if (runs.stream().anyMatch(r -> r.secondary.containsKey(l))) {
        latencies.add(l);
        md.append(' ').append(l).append(" Troupe / Pekko |");
      }
    }
    md.append("\n|");
    for (int i = 0; i < names.size() + 5 + latencies.size(); i++) {
      md.append("---:|");
    }
    md.append('\n');
    for (Map<String, String> row : rows) {
      md.append('|');
      for (String n : names) {
        md.append(' ').append(row.get(n)).append(" |");
      }
      Run tr = t.get(row);
      Run pr = p.get(row);
      Run ptr = pt.get(row);
      md.append(' ')
          .append(cell(tr))
          .append(" | ")
          .append(cell(pr))
          .append(" | ")
          .append(cell(ptr))
          .append(" | ")
          .append(ratio(tr, pr))
          .append(" | ")
          .append(ratio(tr, ptr))
          .append(" |");
      for (String l : latencies) {
        md.append(' ').append(secondary(tr, l)).append(" / ").append(secondary(pr, l)).append(" |");
      }
      md.append('\n');
    }
  }

  private static String secondary(Run r, String metric) {
    Run.Metric m = r == null ? null : r.secondary.get(metric);
    return m == null ? "–" : num(m.score());
  }

  private static void metricTable(StringBuilder md, List<Run> runs) {
    Run first = runs.get(0);
    List<String> names = new ArrayList<>(first.params.keySet());
    List<String> metrics = new ArrayList<>();
    List<String> preferred =
        List.of(
            "p50Us",
            "p90Us",
            "p99Us",
            "p999Us",
            "maxUs",
            "cpuNsPerRoundTrip",
            "processCpuNsPerRoundTrip");
    Set<String> all = new LinkedHashSet<>();
    runs.forEach(r -> all.addAll(r.secondary.keySet()));
    preferred.stream().filter(all::contains).forEach(metrics::add);
    all.stream().filter(m -> !metrics.contains(m)).forEach(metrics::add);
    md.append("Score: ").append(label(first)).append(" (").append(first.primary.unit()).append(")");
    if (!metrics.isEmpty()) {
      md.append("; other columns are JMH secondary results, mean over measurement iterations");
    }
    md.append(".\n\n|");
    for (String n : names) {
      md.append(' ').append(n).append(" |");
    }
    md.append(" score |");
    for (String m : metrics) {
      md.append(' ').append(m).append(" |");
    }
    md.append("\n|");
    for (int i = 0; i < names.size() + 1 + metrics.size(); i++) {
      md.append("---:|");
    }
    md.append('\n');
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort((a, b) -> compareParams(a.params, b.params));
    for (Run r : sorted) {
      md.append('|');
      for (String n : names) {
        md.append(' ').append(r.params.get(n)).append(" |");
      }
      md.append(' ').append(cell(r)).append(" |");
      for (String m : metrics) {
        Run.Metric v = r.secondary.get(m);
        md.append(' ').append(v == null ? "–" : num(v.score())).append(" |");
      }
      md.append('\n');
    }
  }

  static int compareParams(Map<String, String> a, Map<String, String> b) {
    for (String k : a.keySet()) {
      String x = a.get(k);
      String y = b.get(k);
      if (y == null) {
        return -1;
      }
      int c;
      try {
        c = Double.compare(Double.parseDouble(x), Double.parseDouble(y));
      } catch (NumberFormatException e) {
        c = x.compareTo(y);
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static String cell(Run r) {
    if (r == null) {
      return "–";
    }
    Run.Metric m = headline(r);
    String s = num(m.score());
    if (m.samples() > 1) {
      s += " (" + num(m.min()) + "–" + num(m.max()) + ")";
    }
    return s;
  }

  private static String ratio(Run t, Run o) {
    if (t == null || o == null) {
      return "–";
    }
    return ratio(headline(t).score() / headline(o).score());
  }

  private static String ratio(double r) {
    if (Double.isNaN(r) || Double.isInfinite(r)) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.2f×", r);
  }

  /** Three significant digits with k / M / G suffixes. */
  static String num(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    double a = Math.abs(v);
    String suffix = "";
    if (a >= 1e9) {
      v /= 1e9;
      suffix = " G";
    } else if (a >= 1e6) {
      v /= 1e6;
      suffix = " M";
    } else if (a >= 1e4) {
      v /= 1e3;
      suffix = " k";
    }
    double b = Math.abs(v);
    String f = b >= 100 ? "%.0f" : b >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, f, v) + suffix;
  }

  /**
   * Appends the hand-written sections in {@code notes/*.md} (in name order): results of runs this
   * report does not make, such as {@code IdleCpu}'s quarter of an hour, kept across report runs.
   */
  private static void appendNotes(StringBuilder md, Path notes) throws IOException {
    if (!Files.isDirectory(notes)) {
      return;
    }
    List<Path> files = new ArrayList<>();
    try (var listing = Files.newDirectoryStream(notes, "*.md")) {
      listing.forEach(files::add);
    }
    files.sort(null);
    for (Path f : files) {
      md.append('\n').append(Files.readString(f, StandardCharsets.UTF_8));
    }
  }
}
