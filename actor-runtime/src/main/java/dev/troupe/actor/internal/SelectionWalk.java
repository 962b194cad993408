package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.RootParentRef;
import dev.troupe.actor.internal.config.SelectionSettings;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.PathGlob;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The walk of one selection with wildcards over the live actor tree, element by element rather
 * than path by path: the refs matched so far are a set (the frontier), and each element maps it to
 * the next set. A {@code ..} after a {@code *} thus collapses the children back into their one
 * parent instead of climbing once per child, so the work is at most the actors of the tree times
 * the elements (a pattern such as {@code /*}{@code /../*}{@code /..} repeated 40 times costs 80
 * steps over a handful of actors, where a path-by-path walk would take 2^40).
 *
 * <p>The work is also bounded: each ref of a frontier and each child compared with a pattern is one
 * visit, and a walk that needs more than {@code troupe.actor.selection.max-visited} visits, or a
 * selection with more than {@code troupe.actor.selection.max-elements} elements, is refused: it
 * matches nothing and {@link #refusal()} says why. As the matches are collected before anything
 * is delivered, a refused selection delivers nothing at all.
 *
 * <p>Children are read from their concurrent containers, so a walk may run on any thread; an
 * instance is for one walk on one thread.
 */
final class SelectionWalk {
  private final SelectionSettings limits;
  private int visited;
  private String refusal;

  SelectionWalk(SelectionSettings limits) {
    this.limits = limits;
  }

  /**
   * Resolves {@code elements} from {@code anchor}.
   *
   * @param anchor where the walk starts
   * @param elements names, patterns with {@code *} and {@code ?}, and {@code ..}
   * @return every matching ref, once each, in the order the walk found them (possibly none); null
   *     if the selection is refused, see {@link #refusal()}
   */
  Collection<InternalActorRef> resolve(InternalActorRef anchor, String[] elements) {
    if (elements.length > limits.maxElements()) {
      refusal = tooManyElements(elements.length, limits);
      return null;
    }
    Set<InternalActorRef> frontier = new LinkedHashSet<>();
    frontier.add(anchor);
    for (String e : elements) {
      boolean up = e.equals("..");
      boolean pattern = !up && PathGlob.hasWildcard(e);
      Set<InternalActorRef> next = new LinkedHashSet<>();
      for (InternalActorRef ref : frontier) {
        if (!visit()) {
          return null;
        }
        ActorCell cell = LocalActorRef.cellOf(ref);
        if (cell == null) {
          continue; // not a local actor, or gone: nothing below or above it here
        }
        if (up) {
          InternalActorRef parent = cell.parent;
          if (parent != null && !(parent instanceof RootParentRef)) {
            next.add(parent);
          }
        } else if (!pattern) {
          InternalActorRef child = cell.childByName(e);
          if (child != null) {
            next.add(child);
          }
        } else {
          for (InternalActorRef child : cell.childrenSnapshot()) {
            if (!visit()) {
              return null;
            }
            if (PathGlob.matches(e, child.path().name())) {
              next.add(child);
            }
          }
        }
      }
      if (next.isEmpty()) {
        return List.of();
      }
      frontier = next;
    }
    return frontier;
  }

  private boolean visit() {
    if (++visited <= limits.maxVisited()) {
      return true;
    }
    refusal =
        "its walk would visit more than " + limits.maxVisited() + " actors (" + SelectionSettings.MAX_VISITED + ")";
    return false;
  }

  static String tooManyElements(int elements, SelectionSettings limits) {
    return "it has " + elements + " path elements, more than " + limits.maxElements() + " ("
        + SelectionSettings.MAX_ELEMENTS + ")";
  }

  /** @return the visits so far: refs of the frontiers and children compared with a pattern */
  int visited() {
    return visited;
  }

  /** @return why the last {@link #resolve} returned null, naming the bound's key; null if it did not */
  String refusal() {
    return refusal;
  }
}
