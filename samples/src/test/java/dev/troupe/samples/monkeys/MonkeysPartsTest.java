package dev.troupe.samples.monkeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The monkeys sample's small parts: the JSON answer, form fields, settings, typing and judging. */
class MonkeysPartsTest {
  @Test
  void theWrittenJsonHasItsFieldsInTheReadmesOrder() {
    var w = new Shakespeare.Written(3, new Tally(List.of("at", "i"), 9), 12);
    assertEquals("{\"shakespearian\":[\"at\",\"i\"],\"unworthy\":9,\"typed\":11,\"monkeys\":3,\"millis\":12}",
        MonkeyServer.json(w));
    assertEquals("{\"shakespearian\":[],\"unworthy\":0,\"typed\":0,\"monkeys\":1,\"millis\":0}",
        MonkeyServer.json(new Shakespeare.Written(1, new Tally(List.of(), 0), 0)));
  }

  @Test
  void anyWordReadsBackAsTheSameString() throws Exception {
    String nasty = "a \"quote\", a \\ backslash, a\nnew line, a\ttab, \u0001 and \u001f, caf\u00e9";
    var w = new Shakespeare.Written(1, new Tally(List.of(nasty), 0), 0);
    var json = new ObjectMapper().readTree(MonkeyServer.json(w));
    assertEquals(nasty, json.get("shakespearian").get(0).asText());
  }

  @Test
  void formFieldsAreDecodedAndCountedEachTime() {
    assertEquals(List.of("7"), MonkeyServer.field("a=1&number=7&b", "number"));
    assertEquals(List.of(" 7", ""), MonkeyServer.field("number=+7&number", "number"));
    assertEquals(List.of("x y"), MonkeyServer.field("num%62er=x%20y", "number"));
    assertEquals(List.of(), MonkeyServer.field(null, "number"));
  }

  @Test
  void monkeysTypeShortLowercaseWordsAndTheLexiconJudgesThem() {
    Lexicon lexicon = Lexicon.load();
    assertTrue(lexicon.words().size() > 2000, "a few thousand words: " + lexicon.words().size());
    assertTrue(lexicon.contains("a") && lexicon.contains("i") && lexicon.contains("be") && lexicon.contains("sonnet"));
    for (int i = 0; i < 1000; i++) {
      List<String> typed = Lexicon.type();
      assertTrue(typed.size() >= 1 && typed.size() <= Lexicon.MAX_WORDS, typed.toString());
      for (String w : typed) {
        assertTrue(w.matches("[a-z]{1," + Lexicon.MAX_WORD_LENGTH + "}"), w);
      }
      Tally t = Tally.of(typed, lexicon);
      assertEquals(typed.size(), t.typed());
      assertTrue(t.shakespearian().stream().allMatch(lexicon::contains), t.toString());
    }
    Tally both = new Tally(List.of("a"), 2).plus(new Tally(List.of("be", "i"), 1));
    assertEquals(new Tally(List.of("a", "be", "i"), 3), both);
  }

  @Test
  void settingsAreCheckedAtTheirSource() {
    assertThrows(IllegalArgumentException.class, () -> new MonkeyServer.Settings("127.0.0.1", -1, Duration.ofSeconds(1), Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new MonkeyServer.Settings("127.0.0.1", 0, Duration.ZERO, Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new MonkeyServer.Settings("127.0.0.1", 0, Duration.ofSeconds(1), Duration.ofMillis(-1)));
  }
}
