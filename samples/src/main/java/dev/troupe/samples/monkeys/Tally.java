package dev.troupe.samples.monkeys;

import java.util.ArrayList;
import java.util.List;

/**
 * Typed words, judged: the Shakespearian ones (in the {@link Lexicon}) kept, the unworthy counted.
 *
 * @param shakespearian the words found in the lexicon, in no particular order
 * @param unworthy how many typed words were not
 */
record Tally(List<String> shakespearian, int unworthy) {
  /**
   * Judges one monkey's words.
   *
   * @param words what it typed
   * @param lexicon the judge
   * @return the tally
   */
  static Tally of(List<String> words, Lexicon lexicon) {
    List<String> kept = new ArrayList<>();
    for (String w : words) {
      if (lexicon.contains(w)) {
        kept.add(w);
      }
    }
    return new Tally(List.copyOf(kept), words.size() - kept.size());
  }

  /**
   * @param other another tally
   * @return both together
   */
  Tally plus(Tally other) {
    List<String> kept = new ArrayList<>(shakespearian.size() + other.shakespearian.size());
    kept.addAll(shakespearian);
    kept.addAll(other.shakespearian);
    return new Tally(kept, unworthy + other.unworthy);
  }

  /** @return every word typed */
  int typed() {
    return shakespearian.size() + unworthy;
  }
}
