package dev.troupe.samples.pingpong;

import dev.troupe.actor.ActorSystem;
import dev.troupe.samples.Flags;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  static final List<String> EXECUTORS = List.of("affinity", "fork-join", "thread-pool");

  /** The dispatcher the measured actors run on (configured by {@link PingPong#dispatcherConfig}). */
  static final String DISPATCHER = "pingpong-dispatcher";

  /** Width and height of every chart, in pixels. */
  static final int WIDTH = 800;

  static final int HEIGHT = 500;

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s)");

  private Studies() {}

  /**
   * The time of each configuration: unmeasured, then measured.
   *
   * @param warmUp the {@code --warm-up} option
   * @param measured the {@code --duration} option
   */
  record Times(Duration warmUp, Duration measured) {
    /**
     * Reads {@code --warm-up} and {@code --duration}.
     *
     * @param f the parsed options
     * @param sample the sample's name, for the message
     * @return the times
     * @throws Flags.Exit with {@link Flags#USAGE_ERROR} for a malformed one
     */
    static Times of(Flags f, String sample) {
      return new Times(duration(f, "warm-up", sample), duration(f, "duration", sample));
    }

    /** @return e.g. {@code 1s warm-up, 3s measured} */
    @Override
    public String toString() {
      return text(warmUp) + " warm-up, " + text(measured) + " measured";
    }
  }

  /**
   * Reads a time option such as {@code 300ms} or {@code 3s}.
   *
   * @param f the parsed options
   * @param name the option
   * @param sample the sample's name, for the message
   * @return the time, at least 1 ms
   * @throws Flags.Exit with {@link Flags#USAGE_ERROR} for anything else
   */
  private static Duration duration(Flags f, String name, String sample) {
    String v = f.text(name);
    Matcher m = DURATION.matcher(v);
    Duration d = null;
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        d = m.group(2).equals("ms") ? Duration.ofMillis(n) : Duration.ofSeconds(n);
      } catch (NumberFormatException e) {
        d = null; // too many digits
      }
    }
    if (d == null || d.toMillis() < 1 || d.compareTo(Duration.ofHours(1)) > 0) {
      throw new Flags.Exit(
          Flags.USAGE_ERROR,
          "--" + name + " must be a time from 1ms to 3600s, like 300ms or 3s, got '" + v + "'\n("
              + sample + " --help lists the options)");
    }
    return d;
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
   * @param d a time
   * @return it as the time options write it ({@code 300ms}, {@code 3s})
   */
  static String text(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
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
