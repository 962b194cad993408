package dev.troupe.actor.internal;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.Identify;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A selection: with a local anchor, elements are resolved against the live actor tree when a
 * message is sent, on the sending thread (children containers are concurrent), so a selection
 * costs no extra hop; with an anchor on another node, the whole selection is sent there as an
 * {@link ActorSelectionMessage} and resolved by that node.
 */
final class ActorSelectionImpl extends ActorSelection {
  private final ActorSystemImpl system;
  private final InternalActorRef anchor;
  private final String[] elements;
  private final boolean wildcard;

  ActorSelectionImpl(ActorSystemImpl system, InternalActorRef anchor, List<String> elements) {
    this.system = system;
    this.anchor = anchor;
    this.elements = elements.toArray(new String[0]);
    boolean w = false;
    for (String e : this.elements) {
      w |= isPattern(e);
    }
    this.wildcard = w;
  }

  private static boolean isPattern(String e) {
    return e.indexOf('*') >= 0 || e.indexOf('?') >= 0;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    Objects.requireNonNull(message, "message");
    if (!anchor.isLocal()) {
      anchor.tell(new ActorSelectionMessage(message, List.of(elements)), sender);
      return;
    }
    int matched = deliver(anchor, 0, message, sender);
    if (matched == 0 && !wildcard) {
      system.deadLetters.publish(message, sender, system.deadLetters);
    }
  }

  private int deliver(InternalActorRef ref, int i, Object message, ActorRef sender) {
    if (i == elements.length) {
      ref.tell(message, sender);
      return 1;
    }
    String e = elements[i];
    ActorCell cell = ref.cellOrNull();
    if (e.equals("..")) {
      InternalActorRef parent = cell == null ? null : cell.parent;
      return parent == null || parent instanceof RootParentRef ? 0 : deliver(parent, i + 1, message, sender);
    }
    if (cell == null) {
      return 0;
    }
    if (!isPattern(e)) {
      InternalActorRef child = cell.childByName(e);
      return child == null ? 0 : deliver(child, i + 1, message, sender);
    }
    int n = 0;
    for (InternalActorRef child : cell.childrenSnapshot()) {
      if (globMatches(e, child.path().name())) {
        n += deliver(child, i + 1, message, sender);
      }
    }
    return n;
  }

  /** {@code *} matches any sequence, {@code ?} any one character. */
  static boolean globMatches(String pattern, String s) {
    int p = 0;
    int i = 0;
    int starP = -1;
    int starI = 0;
    while (i < s.length()) {
      if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
        p++;
        i++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        starP = p++;
        starI = i;
      } else if (starP >= 0) {
        p = starP + 1;
        i = ++starI;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  @Override
  public CompletionStage<ActorRef> resolveOne(Duration timeout) {
    return system
        .ask(tmp -> tell(new Identify(null), tmp), timeout, toString())
        .handle(
            (reply, failure) -> {
              if (reply instanceof ActorIdentity id && id.ref().isPresent()) {
                return id.ref().get();
              }
              if (system.isTerminated()) {
                throw new CompletionException(system.terminatedException());
              }
              throw new CompletionException(new ActorNotFound(this));
            });
  }

  @Override
  public ActorRef anchor() {
    return anchor;
  }

  @Override
  public String pathString() {
    return "/" + String.join("/", elements);
  }
}
