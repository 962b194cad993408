package dev.troupe.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One JMH result (one benchmark method with one parameter combination), read from JSON. */
final class Run {
  final String className; // simple name, e.g. PingPongThroughput
  final String method;
  final String mode;
  final Map<String, String> params;
  final Metric primary;
  final Map<String, Metric> secondary;
  final String jdk;
  final String vm;
  final String jmhVersion;
  final List<String> jvmArgs;
  final String iterations;

  /** A score with its spread over measurement iterations. */
  record Metric(double score, double error, String unit, double min, double max, int samples) {
    static Metric of(Map<String, Object> m) {
      double min = Double.NaN;
      double max = Double.NaN;
      double sum = 0;
      int n = 0;
      Object raw = m.get("rawData");
      if (raw instanceof List<?> forks) {
        for (Object fork : forks) {
          if (fork instanceof List<?> its) {
            for (Object v : its) {
              double d = Json.number(v);
              if (!Double.isNaN(d)) {
                min = n == 0 ? d : Math.min(min, d);
                max = n == 0 ? d : Math.max(max, d);
                sum += d;
                n++;
              }
            }
          }
        }
      }
      // The mean of the iterations: JMH's own score is that mean for averaged metrics, but the
      // sum for event counters in single-shot mode (bytesPerActor would come out doubled).
      return new Metric(
          n > 0 ? sum / n : Json.number(m.get("score")),
          Json.number(m.get("scoreError")),
          String.valueOf(m.get("scoreUnit")),
          min,
          max,
          n);
    }
  }

  @SuppressWarnings("unchecked")
  Run(Map<String, Object> json) {
    String full = String.valueOf(json.get("benchmark"));
    int dot = full.lastIndexOf('.');
    String cls = full.substring(0, dot);
    this.className = cls.substring(cls.lastIndexOf('.') + 1);
    this.method = full.substring(dot + 1);
    this.mode = String.valueOf(json.get("mode"));
    this.params = new LinkedHashMap<>();
    Object p = json.get("params");
    if (p instanceof Map<?, ?> pm) {
      pm.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
    }
    this.primary = Metric.of((Map<String, Object>) json.get("primaryMetric"));
    this.secondary = new LinkedHashMap<>();
    Object s = json.get("secondaryMetrics");
    if (s instanceof Map<?, ?> sm) {
      sm.forEach((k, v) -> secondary.put(String.valueOf(k), Metric.of((Map<String, Object>) v)));
    }
    this.jdk = String.valueOf(json.get("jdkVersion"));
    this.vm = json.get("vmName") + " " + json.get("vmVersion");
    this.jmhVersion = String.valueOf(json.get("jmhVersion"));
    this.jvmArgs = new ArrayList<>();
    if (json.get("jvmArgs") instanceof List<?> a) {
      a.forEach(x -> jvmArgs.add(String.valueOf(x)));
    }
    this.iterations =
        "forks "
            + fmtInt(json.get("forks"))
            + ", warmup "
            + fmtInt(json.get("warmupIterations"))
            + " × "
            + json.get("warmupTime")
            + ", measurement "
            + fmtInt(json.get("measurementIterations"))
            + " × "
            + json.get("measurementTime");
  }

  private static String fmtInt(Object o) {
    double d = Json.number(o);
    return Double.isNaN(d) ? String.valueOf(o) : String.valueOf((long) d);
  }

  /**
   * @return {@code Class.method}
   */
  String key() {
    return className + "." + method;
  }

  /**
   * @return the parameters without {@code impl}
   */
  Map<String, String> paramsWithoutImpl() {
    Map<String, String> m = new LinkedHashMap<>(params);
    m.remove("impl");
    return m;
  }
}
