package dev.troupe.samples;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations as the samples' command lines write them: a whole number and a unit, {@code 500ms},
 * {@code 5s}, {@code 2m}, {@code 1h}. {@link Converter} is the picocli converter of a {@code
 * Duration} option ({@code @Option(converter = Durations.Converter.class, defaultValue = "5s")});
 * {@link OrForever} also takes {@code forever}.
 */
public final class Durations {
  /** What {@link OrForever} makes of {@code forever}: longer than any run. */
  public static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  private Durations() {}

  /**
   * Parses a duration as the command line writes it.
   *
   * @param text e.g. {@code 500ms}, {@code 5s}, {@code 2m} or {@code 1h}
   * @return the duration
   * @throws IllegalArgumentException {@code 'text' is not a duration like 500ms, 5s, 2m or 1h}
   */
  public static Duration parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a duration like 500ms, 5s, 2m or 1h");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

  /**
   * Writes a duration as the command line would, in its largest whole unit.
   *
   * @param d a duration
   * @return e.g. {@code 300ms}, {@code 5s}, {@code 2m}, {@code 1h}; {@code forever} for {@link #FOREVER}
   */
  public static String format(Duration d) {
    if (d.equals(FOREVER)) {
      return "forever";
    }
    long ms = d.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    if (s == 0) {
      return "0s";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    return s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  /** The picocli converter of a duration option. */
  public static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** The picocli converter of a duration option that also takes {@code forever} ({@link #FOREVER}). */
  public static final class OrForever implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      if (value.equals("forever")) {
        return FOREVER;
      }
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage() + ", or forever");
      }
    }
  }
}
