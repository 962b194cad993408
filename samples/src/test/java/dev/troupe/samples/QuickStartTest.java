package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.samples.quickstart.QuickStart;
import org.junit.jupiter.api.Test;

class QuickStartTest {
  @Test
  void theReadmeQuickStartTellsAsksAndStops() throws Exception {
    // the tell is processed before the ask (same sender, same receiver), so this is greeting #2
    assertEquals("Hello, Troupe #2", QuickStart.run());
  }
}
