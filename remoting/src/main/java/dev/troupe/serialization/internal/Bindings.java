package dev.troupe.serialization.internal;

import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serializer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Picks the serializer of a class from the bindings (class or interface to serializer), most
 * specific first:
 *
 * <ol>
 *   <li>the class itself;
 *   <li>its nearest bound superclass ({@code Object} excepted);
 *   <li>its nearest bound interfaces, counting one step per superclass or super-interface; an
 *       interface that another bound one at that distance extends is less specific and drops out.
 *       Two or more left that name different serializers are ambiguous: the class must be bound
 *       itself;
 *   <li>{@code java.lang.Object}, if bound: a catch-all, the least specific of all.
 * </ol>
 */
public final class Bindings {
  private Bindings() {}

  /**
   * @param c the class of a message
   * @param bindings the bindings
   * @param names the configured name of each serializer, for the ambiguity error
   * @return the serializer, or null if nothing is bound for {@code c}
   * @throws SerializationException if two unrelated interfaces at the same distance are bound to
   *     different serializers
   */
  public static Serializer resolve(
      Class<?> c, Map<Class<?>, Serializer> bindings, Function<Serializer, String> names) {
    Serializer s = bindings.get(c);
    if (s != null) {
      return s;
    }
    for (Class<?> k = c.getSuperclass(); k != null && k != Object.class; k = k.getSuperclass()) {
      s = bindings.get(k);
      if (s != null) {
        return s;
      }
    }
    List<Class<?>> nearest = nearestBoundInterfaces(c, bindings);
    if (nearest.isEmpty()) {
      return bindings.get(Object.class);
    }
    Class<?> first = nearest.get(0);
    for (Class<?> other : nearest) {
      if (bindings.get(other) != bindings.get(first)) {
        throw new SerializationException(
            "ambiguous serializer for " + c.getName() + ": it implements " + first.getName()
                + " (bound to " + names.apply(bindings.get(first)) + ") and " + other.getName()
                + " (bound to " + names.apply(bindings.get(other)) + "), neither extends the other and"
                + " both are as near; bind " + c.getName() + " itself in troupe.serialization.bindings");
      }
    }
    return bindings.get(first);
  }

  /** The bound interfaces at the smallest distance from {@code c}, the less specific dropped. */
  private static List<Class<?>> nearestBoundInterfaces(Class<?> c, Map<Class<?>, Serializer> bindings) {
    Map<Class<?>, Integer> distance = new HashMap<>();
    Deque<Class<?>> queue = new ArrayDeque<>();
    distance.put(c, 0);
    queue.add(c);
    List<Class<?>> found = new ArrayList<>();
    int foundAt = Integer.MAX_VALUE;
    while (!queue.isEmpty()) {
      Class<?> t = queue.poll();
      int d = distance.get(t);
      if (d >= foundAt) {
        break; // breadth first: nothing nearer can follow
      }
      List<Class<?>> next = new ArrayList<>(List.of(t.getInterfaces()));
      if (t.getSuperclass() != null) {
        next.add(t.getSuperclass());
      }
      for (Class<?> n : next) {
        if (distance.putIfAbsent(n, d + 1) == null) {
          queue.add(n);
          if (n.isInterface() && bindings.containsKey(n)) {
            found.add(n);
            foundAt = d + 1;
          }
        }
      }
    }
    found.removeIf(i -> found.stream().anyMatch(j -> j != i && i.isAssignableFrom(j)));
    found.sort(Comparator.comparing(Class::getName));
    return found;
  }
}
