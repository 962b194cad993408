package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.spi.ClassicRefView;
import dev.troupe.serialization.SerializationException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The {@link ClassicRefView}s present (found with {@link ServiceLoader}): the kinds of reference,
 * besides the classic {@link ActorRef}, that travel as the path of a classic ref (e.g. the typed
 * module's {@code ActorRef<T>}). Immutable; a lookup is a scan of a list that is almost always of
 * one element.
 */
public final class RefViews {
  private final List<ClassicRefView<?>> views;

  private RefViews(List<ClassicRefView<?>> views) {
    this.views = List.copyOf(views);
  }

  /**
   * @param loader the loader to search (on the module path, the named modules it sees)
   * @return the views present
   */
  public static RefViews load(ClassLoader loader) {
    List<ClassicRefView<?>> found = new ArrayList<>();
    for (ClassicRefView<?> v : ServiceLoader.load(ClassicRefView.class, loader)) {
      found.add(v);
    }
    return new RefViews(found);
  }

  /** @return the views, in the order found */
  public List<ClassicRefView<?>> all() {
    return views;
  }

  /**
   * @param o a value that is not a classic ref
   * @return the view whose type it is an instance of, or null
   */
  public ClassicRefView<?> viewOf(Object o) {
    for (ClassicRefView<?> v : views) {
      if (v.type().isInstance(o)) {
        return v;
      }
    }
    return null;
  }

  /**
   * @param typeName the binary name of a view's type
   * @return that view, or null
   */
  public ClassicRefView<?> byTypeName(String typeName) {
    for (ClassicRefView<?> v : views) {
      if (v.type().getName().equals(typeName)) {
        return v;
      }
    }
    return null;
  }

  /**
   * @param view the view of {@code o}
   * @param o an instance of the view's type
   * @return the classic ref it stands for
   * @throws SerializationException if it stands for none another node can reach
   */
  public static ActorRef toClassic(ClassicRefView<?> view, Object o) {
    ActorRef classic;
    try {
      classic = unwrap(view, o);
    } catch (IllegalArgumentException e) {
      throw new SerializationException(e.getMessage(), e);
    }
    if (classic == null) {
      throw new SerializationException(view.getClass().getName() + " gave no classic ref for " + o);
    }
    return classic;
  }

  private static <R> ActorRef unwrap(ClassicRefView<R> view, Object o) {
    return view.toClassic(view.type().cast(o));
  }
}
