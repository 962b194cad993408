package dev.troupe.serialization;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.spi.ClassicRefView;

/**
 * A kind of reference of the tests' own that stands for a classic ref, registered as a {@link
 * ClassicRefView} in the test class path's {@code META-INF/services}: remoting's handling of views
 * is tested here without the typed module. A handle whose label is {@code "local-only"} refuses to
 * leave its node, as a typed message adapter does.
 *
 * @param label a label (not sent: a handle read back is labelled {@code "read"})
 * @param classic the ref it stands for
 */
public record RefViewTestType(String label, ActorRef classic) {
  /** The view of {@link RefViewTestType}, found with {@link java.util.ServiceLoader}. */
  public static final class View implements ClassicRefView<RefViewTestType> {
    @Override
    public Class<RefViewTestType> type() {
      return RefViewTestType.class;
    }

    @Override
    public ActorRef toClassic(RefViewTestType view) {
      if (view.label().equals("local-only")) {
        throw new IllegalArgumentException("handle " + view.classic() + " is local-only");
      }
      return view.classic();
    }

    @Override
    public RefViewTestType fromClassic(ActorRef classic) {
      return new RefViewTestType("read", classic);
    }
  }
}
