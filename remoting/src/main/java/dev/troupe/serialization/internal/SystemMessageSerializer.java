package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorSystem;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Terminate;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.serialization.SerializationException;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime's messages that a transport carries between nodes, identifier 6, in the compact
 * binary encoding of {@link WireWriter} with a one-letter manifest; refs travel as their paths:
 *
 * <ul>
 *   <li>{@code W} {@link Watch}, {@code U} {@link Unwatch}: the watchee's path, the watcher's;
 *   <li>{@code D} {@link DeathWatchNotification}: the actor's path, one byte of flags;
 *   <li>{@code T} {@link Terminate}: no bytes;
 *   <li>{@code L} {@link ActorSelectionMessage}: the message, nested (any bound type), then the
 *       path elements.
 * </ul>
 *
 * <p>A selection's message is read in place ({@link WireContext#readNested}); values nested more
 * than {@value WireReader#MAX_DEPTH} deep are refused.
 */
public final class SystemMessageSerializer implements InPlaceSerializer {
  private static final byte[] EMPTY = new byte[0];

  private final WireContext context;

  /** @param system the system whose refs and registry are used */
  public SystemMessageSerializer(ActorSystem system) {
    this.context = new WireContext(system);
  }

  @Override
  public int identifier() {
    return 6;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Watch) {
      return "W";
    } else if (o instanceof Unwatch) {
      return "U";
    } else if (o instanceof DeathWatchNotification) {
      return "D";
    } else if (o instanceof Terminate) {
      return "T";
    } else if (o instanceof ActorSelectionMessage) {
      return "L";
    }
    throw new IllegalArgumentException("not a system message a transport carries: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof Terminate) {
      return EMPTY;
    }
    WireWriter w = new WireWriter(96);
    if (o instanceof Watch m) {
      context.writeRef(w, m.watchee());
      context.writeRef(w, m.watcher());
    } else if (o instanceof Unwatch m) {
      context.writeRef(w, m.watchee());
      context.writeRef(w, m.watcher());
    } else if (o instanceof DeathWatchNotification d) {
      context.writeDeath(w, d.actor(), d.existenceConfirmed(), d.addressTerminated());
    } else if (o instanceof ActorSelectionMessage s) {
      context.writeNested(w, s.message());
      w.writeVarInt(s.elements().size());
      for (String e : s.elements()) {
        w.writeString(e);
      }
    } else {
      throw new IllegalArgumentException("not a system message a transport carries: " + o.getClass().getName());
    }
    return w.toByteArray();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return read(new WireReader(bytes, "system message", manifest), manifest);
  }

  /**
   * @param manifest a manifest of this serializer
   * @return the class of the messages it names, or null if it names none
   */
  public static Class<?> classOf(String manifest) {
    return switch (manifest) {
      case "W" -> Watch.class;
      case "U" -> Unwatch.class;
      case "D" -> DeathWatchNotification.class;
      case "T" -> Terminate.class;
      case "L" -> ActorSelectionMessage.class;
      default -> null;
    };
  }

  @Override
  public Object read(WireReader r, String manifest) {
    Object message;
    switch (manifest) {
      case "W" -> message = new Watch(context.readRef(r), context.readRef(r));
      case "U" -> message = new Unwatch(context.readRef(r), context.readRef(r));
      case "D" -> {
        WireContext.Death d = context.readDeath(r);
        message = new DeathWatchNotification(d.actor(), d.existenceConfirmed(), d.addressTerminated());
      }
      case "T" -> message = SystemMessages.TERMINATE;
      case "L" -> {
        Object payload = context.readNested(r);
        int n = r.readVarInt();
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          elements.add(r.readString());
        }
        message = new ActorSelectionMessage(payload, elements);
      }
      default -> throw new SerializationException(
          "unknown manifest '" + manifest + "' for system messages (expected one of W U D T L)");
    }
    r.end();
    return message;
  }
}
