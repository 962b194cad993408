package dev.troupe.samples.pingpong;

import dev.troupe.actor.ActorSystem;
import dev.troupe.samples.Durations;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What the two measuring samples ({@code pingpong-latency}, {@code throughput-sweep}) share: the
 * executors they compare, their time options, a fresh system per configuration, process CPU time,
 * and writing a chart as a PNG without a display.
 */
final class Studies {
  /** The executors compared, as {@link PingPong#dispatcherConfig} names them. */
  static final List<String> EXECUTORS = Arrays.stream(PingPong.Executor.values()).map(String::valueOf).toList();

  /** The dispatcher the measured actors run on (configured by {@link PingPong#dispatcherConfig}). */
  static final String DISPATCHER = "pingpong-dispatcher";

  /** Width and height of every chart, in pixels. */
  static final int WIDTH = 800;

  static final int HEIGHT = 500;

  private Studies() {}

  /** The shortest time option the measuring samples take. */
  static final Duration SHORTEST = Duration.ofMillis(1);

  /** The longest time option the measuring samples take. */
  static final Duration LONGEST = Duration.ofHours(1);

  /**
   * The time of each configuration: unmeasured, then measured.
   *
   * @param warmUp the {@code --warm-up} option
   * @param measured the {@code --duration} option
   */
  record Times(Duration warmUp, Duration measured) {
    /** @return e.g. {@code 1s warm-up, 3s measured} */
    @Override
    public String toString() {
      return Durations.format(warmUp) + " warm-up, " + Durations.format(measured) + " measured";
    }
  }

  /**
   * Charts are drawn off screen: with no display (a server, CI) AWT must be told so before its
   * first use, or the first font lookup fails.
   */
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  /**
   * Terminates a system and waits for it, so that the next configuration starts on idle cores.
   *
   * @param system the system
   * @throws Exception if it does not stop within 30 s
   */
  static void stop(ActorSystem system) throws Exception {
    system.terminate().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /**
   * @return CPU time of the whole JVM so far, in nanoseconds (all threads: the actors', the JIT's,
   *     the collector's)
   * @throws IllegalStateException if this JVM does not report it
   */
  static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      long t = sun.getProcessCpuTime();
      if (t >= 0) {
        return t;
      }
    }
    throw new IllegalStateException("this JVM does not report its process CPU time");
  }

  /**
   * Draws a chart into a PNG file, creating its folder if needed.
   *
   * @param chart the chart
   * @param file where to write it
   */
  static void writePng(Chart<?, ?> chart, Path file) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      BufferedImage image = BitmapEncoder.getBufferedImage(chart);
      if (!ImageIO.write(image, "png", file.toFile())) {
        throw new IllegalStateException("no PNG writer in this JVM");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the chart to " + file, e);
    }
  }

  /**
   * @param format a {@link String#format} pattern
   * @param args its arguments
   * @return the text, with {@code .} as the decimal point whatever the default locale
   */
  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
