package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import java.nio.charset.StandardCharsets;

/**
 * {@code ActorRef}, identifier 4: the full path with uid ({@code
 * troupe://sys@host:port/user/a#42}) as UTF-8, resolved on read by the system's ref provider — to
 * the live local actor for a path of this system, to a ref on the other node otherwise.
 */
public final class ActorRefSerializer implements InPlaceSerializer {
  private final WireContext context;

  /** @param system the system whose provider resolves the paths read */
  public ActorRefSerializer(ActorSystem system) {
    this.context = new WireContext(system);
  }

  @Override
  public int identifier() {
    return 4;
  }

  @Override
  public String manifest(Object o) {
    return "";
  }

  @Override
  public byte[] toBinary(Object o) {
    return WireContext.pathOf((ActorRef) o).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return context.resolve(new String(bytes, StandardCharsets.UTF_8));
  }

  @Override
  public Object read(WireReader r, String manifest) {
    return context.resolve(r.readRemainingString());
  }
}
