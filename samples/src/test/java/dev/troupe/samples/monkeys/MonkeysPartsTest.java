package dev.troupe.samples.monkeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The monkeys sample's small parts: JSON quoting, form fields, durations, typing and judging. */
class MonkeysPartsTest {
  @Test
  void quotedTextReadsBackAsTheSameString() throws Exception {
    String nasty = "a \"quote\", a \\ backslash, a\nnew line, a\ttab, \u0001 and \u001f, caf\u00e9";
    String quoted = Json.quote(nasty);
    assertEquals(nasty, new ObjectMapper().readValue(quoted, String.class));
    assertEquals("\"a \\\"b\\\" \\\\ \\n \\u0001\"", Json.quote("a \"b\" \\ \n \u0001"));
  }

  @Test
  void theWrittenJsonParses() throws Exception {
    var w = new Shakespeare.Written(3, new Tally(List.of("at", "i"), 9), 12);
    var json = new ObjectMapper().readTree(MonkeyServer.json(w));
    assertEquals("[\"at\",\"i\"]", json.get("shakespearian").toString());
    assertEquals(9, json.get("unworthy").asInt());
    assertEquals(11, json.get("typed").asInt());
    assertEquals(3, json.get("monkeys").asInt());
    assertEquals(12, json.get("millis").asInt());
  }

  @Test
  void formFieldsAreDecodedAndCountedEachTime() {
    assertEquals(List.of("7"), MonkeyServer.field("a=1&number=7&b", "number"));
    assertEquals(List.of(" 7", ""), MonkeyServer.field("number=+7&number", "number"));
    assertEquals(List.of("x y"), MonkeyServer.field("num%62er=x%20y", "number"));
    assertEquals(List.of(), MonkeyServer.field(null, "number"));
  }

  @Test
  void durationsNeedAUnit() {
    assertEquals(Duration.ofMillis(500), Monkeys.duration("t", "500ms"));
    assertEquals(Duration.ofSeconds(5), Monkeys.duration("t", "5s"));
    assertEquals(Duration.ofMinutes(2), Monkeys.duration("t", "2m"));
    assertEquals(Duration.ofHours(1), Monkeys.duration("t", "1h"));
    for (String bad : new String[] {"5", "5 s", "-1s", "1.5s", "s", "", "10000000000s"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Monkeys.duration("t", bad));
      assertEquals("--t must be a duration like 500ms, 5s, 2m or 1h, got '" + bad + "'", e.getMessage());
    }
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
