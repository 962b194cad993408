package dev.troupe.bench.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts for the report, drawn with XChart; a chart that cannot be drawn is listed, not fatal.
 */
final class Charts {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 500;

  private final Path dir;
  private final List<String> failures = new ArrayList<>();

  Charts(Path dir) {
    this.dir = dir;
  }

  List<String> failures() {
    return failures;
  }

  /**
   * One line chart per numeric parameter with at least two values: score against that parameter, a
   * line per implementation (and per value of any non-numeric parameter), the other numeric
   * parameters fixed at the combination with the most points.
   */
  List<String> comparisonCharts(
      String key, String label, List<Run> runs, Function<Run, Run.Metric> metric) {
    List<String> files = new ArrayList<>();
    Run first = runs.get(0);
    for (String x : first.paramsWithoutImpl().keySet()) {
      if (!numeric(runs, x) || distinct(runs, x).size() < 2) {
        continue;
      }
      // group by the other numeric params
      Map<Map<String, String>, List<Run>> groups = new LinkedHashMap<>();
      for (Run r : runs) {
        Map<String, String> g = new TreeMap<>();
        for (Map.Entry<String, String> p : r.paramsWithoutImpl().entrySet()) {
          if (!p.getKey().equals(x) && numeric(runs, p.getKey())) {
            g.put(p.getKey(), p.getValue());
          }
        }
        groups.computeIfAbsent(g, k -> new ArrayList<>()).add(r);
      }
      Map<String, String> best = null;
      int bestCount = 1;
      for (Map.Entry<Map<String, String>, List<Run>> g : groups.entrySet()) {
        int n = distinct(g.getValue(), x).size();
        if (n > bestCount) {
          best = g.getKey();
          bestCount = n;
        }
      }
      if (best == null) {
        continue;
      }
      List<Run> chosen = groups.get(best);
      String title = key + ": " + label + " vs " + x + (best.isEmpty() ? "" : " " + best);
      XYChart chart =
          new XYChartBuilder()
              .width(WIDTH)
              .height(HEIGHT)
              .title(title)
              .xAxisTitle(x)
              .yAxisTitle(label)
              .build();
      chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
      chart.getStyler().setYAxisMin(0.0);
      double min = Double.MAX_VALUE;
      double max = 0;
      Map<String, TreeMap<Double, Double>> series = new LinkedHashMap<>();
      for (Run r : chosen) {
        StringBuilder name = new StringBuilder(r.params.get("impl"));
        for (Map.Entry<String, String> p : r.paramsWithoutImpl().entrySet()) {
          if (!p.getKey().equals(x) && !numeric(runs, p.getKey())) {
            name.append(' ').append(p.getValue());
          }
        }
        double xv = Double.parseDouble(r.params.get(x));
        min = Math.min(min, xv);
        max = Math.max(max, xv);
        series
            .computeIfAbsent(name.toString(), k -> new TreeMap<>())
            .put(xv, metric.apply(r).score());
      }
      if (min > 0 && max / min >= 16) {
        chart.getStyler().setXAxisLogarithmic(true);
      }
      for (Map.Entry<String, TreeMap<Double, Double>> s : series.entrySet()) {
        chart
            .addSeries(
                s.getKey(),
                new ArrayList<>(s.getValue().keySet()),
                new ArrayList<>(s.getValue().values()))
            .setMarker(SeriesMarkers.CIRCLE);
      }
      String file = key + "-vs-" + x + ".png";
      if (save(chart, file)) {
        files.add(file);
      }
    }
    return files;
  }

  /** Percentile bars (log scale) and CPU per round trip for latency-style results. */
  List<String> latencyCharts(String key, List<Run> runs) {
    List<String> files = new ArrayList<>();
    String[] pct = {"p50Us", "p90Us", "p99Us", "p999Us", "maxUs"};
    if (!runs.get(0).secondary.containsKey("p50Us")) {
      return files;
    }
    // An XY chart: XChart's category charts reject a logarithmic axis for bars.
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(key + ": round-trip latency (µs, log scale)")
            .xAxisTitle("percentile (1 = p50, 2 = p90, 3 = p99, 4 = p99.9, 5 = max)")
            .yAxisTitle("µs")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
    chart.getStyler().setXAxisDecimalPattern("0");
    List<Double> xs = List.of(1.0, 2.0, 3.0, 4.0, 5.0);
    for (Run r : runs) {
      List<Double> ys = new ArrayList<>();
      for (String p : pct) {
        Run.Metric m = r.secondary.get(p);
        ys.add(m == null || !(m.score() > 0) ? 0.001 : m.score());
      }
      chart.addSeries(seriesName(r), xs, ys).setMarker(SeriesMarkers.CIRCLE);
    }
    String file = key + "-percentiles.png";
    if (save(chart, file)) {
      files.add(file);
    }
    if (runs.get(0).secondary.containsKey("cpuNsPerRoundTrip")) {
      CategoryChart cpu =
          new CategoryChartBuilder()
              .width(WIDTH)
              .height(HEIGHT)
              .title(key + ": CPU per round trip (ns)")
              .xAxisTitle("implementation")
              .yAxisTitle("ns")
              .build();
      cpu.getStyler().setLegendPosition(LegendPosition.OutsideE);
      List<String> names = new ArrayList<>();
      List<Double> sys = new ArrayList<>();
      List<Double> proc = new ArrayList<>();
      for (Run r : runs) {
        names.add(seriesName(r));
        sys.add(score(r, "cpuNsPerRoundTrip"));
        proc.add(score(r, "processCpuNsPerRoundTrip"));
      }
      cpu.addSeries("system threads", names, sys);
      cpu.addSeries("whole process", names, proc);
      String f = key + "-cpu.png";
      if (save(cpu, f)) {
        files.add(f);
      }
    }
    return files;
  }

  /** Bars of the geometric-mean ratios per benchmark. */
  String summaryChart(Map<String, double[]> ratios) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH + 300)
            .height(HEIGHT)
            .title("Troupe relative to Pekko (geometric mean, > 1 favours Troupe)")
            .xAxisTitle("benchmark")
            .yAxisTitle("ratio")
            .build();
    chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
    chart.getStyler().setXAxisLabelRotation(30);
    List<String> names = new ArrayList<>();
    List<Double> vsPekko = new ArrayList<>();
    List<Double> vsTuned = new ArrayList<>();
    for (Map.Entry<String, double[]> e : ratios.entrySet()) {
      names.add(e.getKey());
      vsPekko.add(Double.isNaN(e.getValue()[0]) ? 0.0 : e.getValue()[0]);
      vsTuned.add(Double.isNaN(e.getValue()[2]) ? 0.0 : e.getValue()[2]);
    }
    chart.addSeries("Troupe/Pekko", names, vsPekko);
    chart.addSeries("Troupe/Pekko-tuned", names, vsTuned);
    String file = "summary.png";
    return save(chart, file) ? file : null;
  }

  private static double score(Run r, String metric) {
    Run.Metric m = r.secondary.get(metric);
    return m == null || Double.isNaN(m.score()) ? 0.0 : m.score();
  }

  private static String seriesName(Run r) {
    return String.join(" ", r.params.values());
  }

  private static boolean numeric(List<Run> runs, String param) {
    for (Run r : runs) {
      String v = r.params.get(param);
      try {
        Double.parseDouble(v);
      } catch (RuntimeException e) {
        return false;
      }
    }
    return true;
  }

  private static Set<String> distinct(List<Run> runs, String param) {
    Set<String> s = new LinkedHashSet<>();
    runs.forEach(r -> s.add(r.params.get(param)));
    return s;
  }

  private boolean save(Chart<?, ?> chart, String file) {
    try {
      String base = dir.resolve(file).toString();
      BitmapEncoder.saveBitmap(
          chart, base.substring(0, base.length() - ".png".length()), BitmapFormat.PNG);
      return true;
    } catch (Throwable e) { // e.g. no fonts in a headless JDK: report it, keep the tables
      failures.add(file + ": " + e);
      return false;
    }
  }
}
