package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.spi.ClassicRefView;
import dev.troupe.serialization.SerializationException;
import java.nio.charset.StandardCharsets;

/**
 * {@code ActorRef}, identifier 4: the full path with uid ({@code
 * troupe://sys@host:port/user/a#42}) as UTF-8, resolved on read by the system's ref provider — to
 * the live local actor for a path of this system, to a ref on the other node otherwise.
 *
 * <p>A reference of a {@link ClassicRefView}'s type (e.g. a typed {@code ActorRef<T>}) is written
 * the same way, as its classic ref's path, with the view's type name as manifest (a classic ref's
 * manifest is empty), and read back wrapped by that view.
 */
public final class ActorRefSerializer implements InPlaceSerializer {
  private final WireContext context;
  private final RefViews views;

  /** @param system the system whose provider resolves the paths read */
  public ActorRefSerializer(ActorSystem system) {
    this.context = new WireContext(system);
    this.views = RefViews.load(SerializerSetup.classLoader());
  }

  @Override
  public int identifier() {
    return 4;
  }

  @Override
  public String manifest(Object o) {
    return o instanceof ActorRef ? "" : viewOf(o).type().getName();
  }

  @Override
  public byte[] toBinary(Object o) {
    ActorRef ref = o instanceof ActorRef r ? r : RefViews.toClassic(viewOf(o), o);
    return WireContext.pathOf(ref).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return wrap(context.resolve(new String(bytes, StandardCharsets.UTF_8)), manifest);
  }

  @Override
  public Object read(WireReader r, String manifest) {
    return wrap(context.resolve(r.readRemainingString()), manifest);
  }

  private ClassicRefView<?> viewOf(Object o) {
    ClassicRefView<?> v = views.viewOf(o);
    if (v == null) {
      throw new SerializationException(
          o.getClass().getName() + " is neither a classic ActorRef nor of a type that a "
              + ClassicRefView.class.getName() + " present here converts");
    }
    return v;
  }

  private Object wrap(ActorRef classic, String manifest) {
    if (manifest.isEmpty()) {
      return classic;
    }
    ClassicRefView<?> v = views.byTypeName(manifest);
    if (v == null) {
      throw new SerializationException(
          "unknown ref manifest '" + manifest + "': no " + ClassicRefView.class.getName() + " of that type here"
              + " (is the sender's module, e.g. troupe-actor-typed, on this node?)");
    }
    return v.fromClassic(classic);
  }
}
