package dev.troupe.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader for JMH result files: objects become {@link LinkedHashMap}s, arrays {@link
 * ArrayList}s, numbers {@link Double}s; strings, booleans and null as usual. JMH writes non-finite
 * numbers as the strings {@code "NaN"}, {@code "Infinity"}; {@link #number} reads both.
 */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  /**
   * @param text JSON text
   * @return the value
   * @throws IllegalArgumentException on malformed input, with the offset
   */
  static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.i != text.length()) {
      throw p.error("trailing characters");
    }
    return v;
  }

  /**
   * @param v a parsed value: a number or a numeric string such as {@code "NaN"}
   * @return it as a double, NaN if absent or not numeric
   */
  static double number(Object v) {
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String str) {
      try {
        return Double.parseDouble(str);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  private Object value() {
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return num();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    ws();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      ws();
      if (peek() != '"') {
        throw error("expected a key");
      }
      String k = string();
      ws();
      expect(':');
      ws();
      m.put(k, value());
      ws();
      char c = next();
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        throw error("expected , or }");
      }
    }
  }

  private List<Object> array() {
    List<Object> a = new ArrayList<>();
    i++;
    ws();
    if (peek() == ']') {
      i++;
      return a;
    }
    while (true) {
      ws();
      a.add(value());
      ws();
      char c = next();
      if (c == ']') {
        return a;
      }
      if (c != ',') {
        throw error("expected , or ]");
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') {
        return b.toString();
      }
      if (c == '\\') {
        char e = next();
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("bad \\u escape");
            }
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> b.append(e); // " \ /
        }
      } else {
        b.append(c);
      }
    }
  }

  private Double num() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    if (start == i) {
      throw error("unexpected character '" + s.charAt(i) + "'");
    }
    return Double.parseDouble(s.substring(start, i));
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw error("expected " + word);
    }
    i += word.length();
    return v;
  }

  private void ws() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private char peek() {
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    return s.charAt(i);
  }

  private char next() {
    char c = peek();
    i++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) {
      throw error("expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + i);
  }
}
