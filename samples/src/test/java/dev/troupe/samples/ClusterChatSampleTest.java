package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * cluster-chat: three members in this JVM on loopback; every reader hears every published line once
 * and in each member's order, one moderator reviews the line published to each group, and the help
 * desk on the last member answers a question sent by path from the first.
 */
class ClusterChatSampleTest {
  private static final Pattern HEARD = Pattern.compile("(member-\\d) heard (member-\\d): hello #(\\d) from \\2");

  @Test
  void everyReaderHearsEveryLineOnceOneModeratorReviewsAndTheDeskAnswers() {
    String out = Launcher.run(0, "cluster-chat", "--members", "3", "--lines", "2");
    Map<String, Integer> perReader = new HashMap<>();
    Matcher m = HEARD.matcher(out);
    while (m.find()) {
      perReader.merge(m.group(1), 1, Integer::sum);
    }
    assertEquals(Map.of("member-1", 6, "member-2", 6, "member-3", 6), perReader, "six lines for each reader:\n" + out);
    assertTrue(out.contains("every reader heard all 6 lines once, each member's in the order it published them"), out);
    Matcher moderator = Pattern.compile("one moderator, on member-\\d, reviews: \\[moderate\\] is this line fine\\?").matcher(out);
    assertTrue(moderator.find(), out);
    assertFalse(moderator.find(), "only one moderator:\n" + out);
    assertTrue(Pattern.compile("member-1 asked the help desk by its path: the desk on troupe://cluster-chat@127\\.0\\.0\\.1:\\d+ says")
        .matcher(out).find(), out);
    assertFalse(out.contains("UNEXPECTED") || out.contains("OUT OF ORDER"), out);
  }

  @Test
  void itHasHelpAndRejectsBadOptions() {
    assertTrue(Launcher.run(0, "cluster-chat", "--help").contains("--lines"));
    assertTrue(Launcher.run(2, "cluster-chat", "--members", "1").contains("--members"));
    assertTrue(Launcher.run(2, "cluster-chat", "--lines", "0").contains("--lines"));
  }
}
