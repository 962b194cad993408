package dev.troupe.actor;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The unique, hierarchical name of an actor: an {@link Address} followed by path elements, e.g.
 * {@code troupe://demo/user/parent/child}.
 *
 * <p>Paths are immutable values. Two paths are equal when address and elements are equal; the
 * {@link #uid()} (which tells apart successive actors with the same name) takes no part in path
 * equality, but does in {@link ActorRef} equality.
 */
public final class ActorPath implements Comparable<ActorPath> {
  /** The uid of a path that names no particular incarnation. */
  public static final long UNDEFINED_UID = 0L;

  // Four fields, 32 bytes: a system holds one path per actor, so depth and hash are computed by
  // walking the parents (paths are short) rather than stored.
  private final Address address;
  private final ActorPath parent; // null only for the root
  private final String name;
  private final long uid;

  private ActorPath(Address address, ActorPath parent, String name, long uid) {
    this.address = address;
    this.parent = parent;
    this.name = name;
    this.uid = uid;
  }

  /**
   * The root path of a system.
   *
   * @param address the system's address
   * @return {@code address + "/"}
   */
  public static ActorPath root(Address address) {
    return new ActorPath(Objects.requireNonNull(address, "address"), null, "/", UNDEFINED_UID);
  }

  /**
   * A child of this path.
   *
   * @param childName a valid path element (see {@link #isValidPathElement(String)})
   * @return the child path, without uid
   * @throws InvalidActorNameException if the name is not a valid element
   */
  public ActorPath child(String childName) {
    validatePathElement(childName);
    return new ActorPath(address, this, childName, UNDEFINED_UID);
  }

  /**
   * A descendant of this path.
   *
   * @param relative elements separated by {@code /}, e.g. {@code "user/a/b"}
   * @return the descendant
   */
  public ActorPath descendant(String relative) {
    ActorPath p = this;
    for (String element : relative.split("/")) {
      if (!element.isEmpty()) {
        p = p.child(element);
      }
    }
    return p;
  }

  /**
   * This path with the given uid.
   *
   * @param newUid the incarnation's uid
   * @return a path equal to this one carrying {@code newUid}
   */
  public ActorPath withUid(long newUid) {
    if (newUid == uid) {
      return this;
    }
    if (parent == null) {
      throw new IllegalStateException("the root path has no uid");
    }
    return new ActorPath(address, parent, name, newUid);
  }

  /**
   * Parses a full path such as {@code troupe://demo/user/a} or {@code
   * troupe://demo@host:2552/user/a#123}.
   *
   * @param text the path
   * @return the parsed path
   * @throws IllegalArgumentException if the text is not a full actor path
   */
  public static ActorPath fromString(String text) {
    Objects.requireNonNull(text, "path");
    int sep = text.indexOf("://");
    int slash = sep < 0 ? -1 : text.indexOf('/', sep + 3);
    if (slash < 0) {
      throw new IllegalArgumentException(
          "malformed actor path '" + text + "': expected troupe://system[@host:port]/elements");
    }
    Address address = Address.parse(text.substring(0, slash));
    String rest = text.substring(slash + 1);
    long uid = UNDEFINED_UID;
    int hashSign = rest.indexOf('#');
    if (hashSign >= 0) {
      try {
        uid = Long.parseLong(rest.substring(hashSign + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("malformed uid in actor path '" + text + "'", e);
      }
      rest = rest.substring(0, hashSign);
    }
    ActorPath p = root(address);
    try {
      p = p.descendant(rest);
    } catch (InvalidActorNameException e) {
      throw new IllegalArgumentException("malformed actor path '" + text + "': " + e.getMessage(), e);
    }
    return uid == UNDEFINED_UID || p.parent == null ? p : p.withUid(uid);
  }

  /**
   * Whether {@code element} may be used as an actor name: non-empty, made of ASCII letters,
   * digits and {@code -_.*$+:@&=,!~';}, or {@code %} followed by two hex digits.
   *
   * @param element a candidate name
   * @return whether it is valid
   */
  public static boolean isValidPathElement(String element) {
    if (element == null || element.isEmpty()) {
      return false;
    }
    int n = element.length();
    for (int i = 0; i < n; i++) {
      char c = element.charAt(i);
      if (c == '%') {
        if (i + 2 >= n || !isHex(element.charAt(i + 1)) || !isHex(element.charAt(i + 2))) {
          return false;
        }
        i += 2;
      } else if (!isValidChar(c)) {
        return false;
      }
    }
    return true;
  }

  static void validatePathElement(String element) {
    if (!isValidPathElement(element)) {
      throw new InvalidActorNameException(
          "invalid actor path element ["
              + element
              + "]: a name must be non-empty and use only ASCII letters, digits, "
              + "'-_.*$+:@&=,!~';' or %XX escapes");
    }
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isValidChar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      return true;
    }
    return "-_.*$+:@&=,!~';".indexOf(c) >= 0;
  }

  /** @return the last element, or {@code "/"} for the root */
  public String name() {
    return name;
  }

  /** @return the parent path; the root is its own parent */
  public ActorPath parent() {
    return parent == null ? this : parent;
  }

  /** @return the root of this path */
  public ActorPath root() {
    ActorPath p = this;
    while (p.parent != null) {
      p = p.parent;
    }
    return p;
  }

  /** @return the address of the system the actor lives in */
  public Address address() {
    return address;
  }

  /** @return the uid of the incarnation this path names, {@link #UNDEFINED_UID} if none */
  public long uid() {
    return uid;
  }

  /** @return the number of elements below the root */
  public int depth() {
    int d = 0;
    for (ActorPath p = parent; p != null; p = p.parent) {
      d++;
    }
    return d;
  }

  /** @return the elements below the root, e.g. {@code [user, a, b]} */
  public List<String> elements() {
    int depth = depth();
    if (depth == 0) {
      return List.of();
    }
    String[] out = new String[depth];
    ActorPath p = this;
    for (int i = depth - 1; i >= 0; i--) {
      out[i] = p.name;
      p = p.parent;
    }
    return Collections.unmodifiableList(java.util.Arrays.asList(out));
  }

  /** @return the path without its address, e.g. {@code /user/a} */
  public String toStringWithoutAddress() {
    if (parent == null) {
      return "/";
    }
    StringBuilder sb = new StringBuilder(64);
    appendElements(sb);
    return sb.toString();
  }

  private void appendElements(StringBuilder sb) {
    if (parent != null) {
      parent.appendElements(sb);
      sb.append('/').append(name);
    }
  }

  /** @return the full path with the uid, e.g. {@code troupe://demo/user/a#42}, for serialization */
  public String toSerializationFormat() {
    return uid == UNDEFINED_UID ? toString() : toString() + "#" + uid;
  }

  /**
   * This path under another address (used when a local path is shown to remote systems).
   *
   * @param other the address to use
   * @return the same elements and uid under {@code other}
   */
  public ActorPath withAddress(Address other) {
    if (other.equals(address)) {
      return this;
    }
    ActorPath p = root(other);
    for (String e : elements()) {
      p = new ActorPath(other, p, e, UNDEFINED_UID);
    }
    return uid == UNDEFINED_UID ? p : p.withUid(uid);
  }

  /**
   * Whether this path is {@code other} or below it.
   *
   * @param other a possible ancestor
   * @return whether {@code other} is an ancestor of (or equal to) this path
   */
  public boolean startsWith(ActorPath other) {
    int otherDepth = other.depth();
    ActorPath p = this;
    for (int d = depth(); p != null && d > otherDepth; d--) {
      p = p.parent;
    }
    return p != null && p.equals(other);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ActorPath other)) {
      return false;
    }
    ActorPath a = this;
    ActorPath b = other;
    while (a != null && b != null) {
      if (a == b) {
        return true;
      }
      if (!a.name.equals(b.name)) {
        return false;
      }
      a = a.parent;
      b = b.parent;
    }
    return a == null && b == null && address.equals(other.address);
  }

  @Override
  public int hashCode() {
    int h = address.hashCode();
    for (ActorPath p = this; p.parent != null; p = p.parent) {
      h = h * 31 + p.name.hashCode();
    }
    return h;
  }

  @Override
  public int compareTo(ActorPath o) {
    return toString().compareTo(o.toString());
  }

  /** @return the full path, e.g. {@code troupe://demo/user/a} (no uid) */
  @Override
  public String toString() {
    return address + toStringWithoutAddress();
  }

}
