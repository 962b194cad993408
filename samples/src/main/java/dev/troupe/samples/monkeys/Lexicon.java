package dev.troupe.samples.monkeys;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The words Shakespeare would sign: common English words from the resource {@code
 * monkeys/words.txt} (one lowercase word per line, {@code #} starts a comment), and the monkeys'
 * way of typing: short words of random letters, so that real ones turn up now and then.
 */
public final class Lexicon {
  /** Where the word list lies on the class path. */
  public static final String RESOURCE = "monkeys/words.txt";

  /** The longest word a monkey types; random words longer than this are almost never real. */
  static final int MAX_WORD_LENGTH = 5;

  /** The most words one monkey types per request. */
  static final int MAX_WORDS = 8;

  private final Set<String> words;

  private Lexicon(Set<String> words) {
    this.words = Set.copyOf(words);
  }

  /**
   * Reads the shipped word list.
   *
   * @return the lexicon
   * @throws IllegalStateException if the resource is missing or malformed
   */
  public static Lexicon load() {
    try (InputStream in = Lexicon.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the word list " + RESOURCE + " is not on the class path");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  private static Lexicon parse(BufferedReader reader) throws IOException {
    Set<String> words = new HashSet<>();
    String line;
    int number = 0;
    while ((line = reader.readLine()) != null) {
      number++;
      String word = line.strip();
      if (word.isEmpty() || word.startsWith("#")) {
        continue;
      }
      if (!word.matches("[a-z]+")) {
        throw new IllegalStateException(RESOURCE + " line " + number + ": not a lowercase word: '" + word + "'");
      }
      words.add(word);
    }
    return new Lexicon(words);
  }

  /**
   * @param word a typed word
   * @return whether it is in the list
   */
  public boolean contains(String word) {
    return words.contains(word);
  }

  /** @return every word of the list */
  public Set<String> words() {
    return words;
  }

  /**
   * What one monkey types: 1 to {@value #MAX_WORDS} words of 1 to {@value #MAX_WORD_LENGTH}
   * random letters each.
   *
   * @return the words
   */
  static List<String> type() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int count = 1 + random.nextInt(MAX_WORDS);
    List<String> typed = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      char[] letters = new char[1 + random.nextInt(MAX_WORD_LENGTH)];
      for (int j = 0; j < letters.length; j++) {
        letters[j] = (char) ('a' + random.nextInt(26));
      }
      typed.add(new String(letters));
    }
    return typed;
  }
}
