package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The measuring samples, {@code pingpong-latency} and {@code throughput-sweep}, run with short
 * times: every configuration has a row of sane numbers, and the charts are real PNGs.
 */
class MeasuringSamplesTest {
  private static final List<String> EXECUTORS = List.of("affinity", "fork-join", "thread-pool");
  private static final List<String> LATENCY_ROWS =
      List.of(
          "affinity idle-cpu-level 1",
          "affinity idle-cpu-level 5",
          "affinity idle-cpu-level 10",
          "fork-join",
          "thread-pool");
  private static final List<String> THROUGHPUTS =
      List.of("1", "2", "5", "10", "20", "50", "100", "200", "1000");

  @Test
  void latencyStudyPrintsEveryConfigurationWithOrderedPercentilesAndCpuAndDrawsItsChart(
      @TempDir Path dir) throws Exception {
    Path png = dir.resolve("charts").resolve("latency.png");
    String out =
        Launcher.run(0, "pingpong-latency", "--duration", "200ms", "--warm-up", "50ms", "--out", png.toString());

    List<List<String>> rows =
        table(out, "| configuration | round trips | p50 us | p90 us | p99 us | p99.9 us | max us "
            + "| CPU ns per round trip | cores busy |");
    assertEquals(LATENCY_ROWS, column(rows, 0), out);
    for (List<String> row : rows) {
      assertTrue(Long.parseLong(row.get(1)) > 0, "round trips in " + row);
      double previous = 0;
      for (int i = 2; i <= 6; i++) { // p50, p90, p99, p99.9, max
        double v = Double.parseDouble(row.get(i));
        assertTrue(v >= previous && v > 0, "percentiles not ordered or zero in " + row + ":\n" + out);
        previous = v;
      }
      assertTrue(Double.parseDouble(row.get(7)) > 0, "CPU per round trip in " + row);
      assertTrue(Double.parseDouble(row.get(8)) > 0, "cores busy in " + row);
    }
    assertTrue(out.contains("chart: " + png.toAbsolutePath()), out);
    assertPng(png);
  }

  @Test
  void throughputSweepPrintsBothSweepsForEveryExecutorAndDrawsTwoCharts(@TempDir Path dir) {
    String out =
        Launcher.run(0, "throughput-sweep", "--duration", "200ms", "--warm-up", "50ms",
            "--pairs", "2", "--max-pairs", "3", "--in-flight", "20", "--out-dir", dir.toString());

    List<List<String>> byThroughput = table(out, "| throughput | affinity | fork-join | thread-pool |");
    assertEquals(THROUGHPUTS, column(byThroughput, 0), out);
    assertRates(byThroughput, out);
    assertTrue(out.contains("by the dispatcher's throughput, 2 pairs"), out);

    List<List<String>> byPairs = table(out, "| pairs | affinity | fork-join | thread-pool |");
    assertEquals(List.of("1", "2", "3"), column(byPairs, 0), out);
    assertRates(byPairs, out);

    assertPng(dir.resolve("throughput-sweep-throughput.png"));
    assertPng(dir.resolve("throughput-sweep-pairs.png"));
  }

  @Test
  void badTimesAreRefusedBeforeAnythingRuns() {
    String out = Launcher.run(Launcher.USAGE_ERROR, "pingpong-latency", "--duration", "3 seconds");
    assertTrue(out.contains("Invalid value for option '--duration': '3 seconds' is not a duration like 500ms, 5s, 2m or 1h"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "throughput-sweep", "--warm-up", "0ms");
    assertTrue(out.contains("--warm-up must be from 1ms to 1h, got 0s"), out);
    assertTrue(out.contains("usage: java -jar samples/target/troupe-samples.jar throughput-sweep"), out);
    out = Launcher.run(Launcher.USAGE_ERROR, "pingpong-latency", "--duration", "2h");
    assertTrue(out.contains("--duration must be from 1ms to 1h, got 2h"), out);
  }

  /**
   * The defaults keep a whole run within 30 s on a 2-core machine: measured and warm-up time of
   * every configuration, with room for starting and stopping a system per configuration.
   */
  @Test
  void defaultRunsFitHalfAMinuteOnTwoCores() {
    Duration latency = defaultTime("pingpong-latency").multipliedBy(LATENCY_ROWS.size());
    assertTrue(latency.compareTo(Duration.ofSeconds(22)) <= 0, "pingpong-latency by default: " + latency);

    int pairsPoints = 4; // --max-pairs 8 on 2 cores: 1, 2, 4, 8
    Duration sweep =
        defaultTime("throughput-sweep").multipliedBy((long) (THROUGHPUTS.size() + pairsPoints) * EXECUTORS.size());
    assertTrue(sweep.compareTo(Duration.ofSeconds(22)) <= 0, "throughput-sweep by default: " + sweep);
  }

  /** The default --duration plus the default --warm-up, read from --help. */
  private static Duration defaultTime(String sample) {
    String help = Launcher.run(0, sample, "--help");
    return defaultOf(help, "--duration").plus(defaultOf(help, "--warm-up"));
  }

  private static Duration defaultOf(String help, String option) {
    String text = CommandLineTest.optionHelp(help, option);
    Matcher m = Pattern.compile("\\(default (\\d+)(ms|s)\\)").matcher(text == null ? "" : text);
    assertTrue(m.find(), option + " has a default in:\n" + help);
    long n = Long.parseLong(m.group(1));
    return m.group(2).equals("ms") ? Duration.ofMillis(n) : Duration.ofSeconds(n);
  }

  /** The rows of the markdown table under {@code header}, each as its cells. */
  private static List<List<String>> table(String out, String header) {
    List<String> lines = out.lines().toList();
    int at = lines.indexOf(header);
    assertTrue(at >= 0, "no table headed\n" + header + "\nin:\n" + out);
    int columns = header.split("\\|", -1).length - 2;
    List<List<String>> rows = new ArrayList<>();
    for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String[] cells = lines.get(i).split("\\|", -1);
      List<String> row = new ArrayList<>();
      for (int c = 1; c < cells.length - 1; c++) {
        row.add(cells[c].trim());
      }
      assertEquals(columns, row.size(), "cells in " + lines.get(i));
      rows.add(row);
    }
    return rows;
  }

  private static List<String> column(List<List<String>> rows, int c) {
    return rows.stream().map(r -> r.get(c)).toList();
  }

  /**
   * Every cell is a rate and the table measured something. One cell may print 0.00 when a short
   * point ran on a machine whose cores were busy elsewhere: the sample promises a measurement, not
   * a speed.
   */
  private static void assertRates(List<List<String>> rows, String out) {
    double sum = 0;
    for (List<String> row : rows) {
      for (String cell : row.subList(1, row.size())) {
        double rate = Double.parseDouble(cell);
        assertTrue(rate >= 0 && Double.isFinite(rate), "messages/s in " + row + ":\n" + out);
        sum += rate;
      }
    }
    assertTrue(sum > 0, "nothing was measured:\n" + out);
  }

  private static void assertPng(Path file) {
    assertTrue(Files.isRegularFile(file), "no chart at " + file);
    BufferedImage image;
    try {
      byte[] signature = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
      byte[] start = Arrays.copyOf(Files.readAllBytes(file), signature.length);
      assertArrayEquals(signature, start, file + " does not start with the PNG signature");
      image = ImageIO.read(file.toFile());
    } catch (IOException e) {
      throw new AssertionError("unreadable chart " + file, e);
    }
    assertNotNull(image, file + " is not an image ImageIO reads");
    assertEquals(800, image.getWidth(), "width of " + file);
    assertEquals(500, image.getHeight(), "height of " + file);
  }
}
