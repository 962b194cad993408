package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** The samples' durations on the command line: a whole number and a unit, read and written back. */
class DurationsTest {
  @Test
  void aDurationIsAWholeNumberAndAUnit() {
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
    assertEquals(Duration.ofSeconds(5), Durations.parse("5s"));
    assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
    assertEquals(Duration.ofHours(1), Durations.parse("1h"));
    assertEquals(Duration.ZERO, Durations.parse("0s"));
    for (String bad : new String[] {"5", "5 s", "-1s", "1.5s", "s", "", "10000000000s", "forever"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad));
      assertEquals("'" + bad + "' is not a duration like 500ms, 5s, 2m or 1h", e.getMessage());
    }
  }

  @Test
  void aDurationIsWrittenInItsLargestWholeUnitAndReadsBack() {
    for (String text : new String[] {"0s", "1ms", "300ms", "1500ms", "5s", "90s", "2m", "61m", "1h", "25h"}) {
      assertEquals(text, Durations.format(Durations.parse(text)));
    }
    assertEquals("forever", Durations.format(Durations.FOREVER));
  }

  @Test
  void theConvertersTellPicocliWhatIsWrong() {
    assertEquals(Duration.ofSeconds(3), new Durations.Converter().convert("3s"));
    TypeConversionException e =
        assertThrows(TypeConversionException.class, () -> new Durations.Converter().convert("3 seconds"));
    assertEquals("'3 seconds' is not a duration like 500ms, 5s, 2m or 1h", e.getMessage());

    assertEquals(Durations.FOREVER, new Durations.OrForever().convert("forever"));
    assertEquals(Duration.ofSeconds(30), new Durations.OrForever().convert("30s"));
    e = assertThrows(TypeConversionException.class, () -> new Durations.OrForever().convert("soon"));
    assertEquals("'soon' is not a duration like 500ms, 5s, 2m or 1h, or forever", e.getMessage());
  }
}
