package dev.troupe.remote.internal;

import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorKilledException;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeathPactException;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages.Failed;
import dev.troupe.runtime.spi.SystemMessages.Recreate;
import dev.troupe.runtime.spi.SystemMessages.Resume;
import dev.troupe.runtime.spi.SystemMessages.Suspend;
import dev.troupe.remote.internal.DeploymentMessages.DeployAck;
import dev.troupe.remote.internal.DeploymentMessages.DeployRefused;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.serialization.RemoteFailure;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import dev.troupe.serialization.internal.WireContext;
import dev.troupe.serialization.internal.WireReader;
import dev.troupe.serialization.internal.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Remote deployment and supervision across nodes, identifier 7, in the compact binary encoding of
 * {@link WireWriter} with a one-letter manifest; refs travel as their paths:
 *
 * <ul>
 *   <li>{@code C} {@link DeployRequest}: the actor's path; its parent; its class name; the number of
 *       constructor arguments, then each as presence, serializer id, manifest and bytes, exactly as
 *       their serializers wrote them (they are read only once the class is accepted); dispatcher and
 *       mailbox ids or none;
 *   <li>{@code A} {@link DeployAck}: the path;
 *   <li>{@code R} {@link DeployRefused}: the path, the parent, the reason;
 *   <li>{@code F} {@link Failed}: the child, its uid, the cause;
 *   <li>{@code S} {@link Suspend}: no bytes; {@code M} {@link Resume} and {@code E} {@link Recreate}:
 *       the cause or none.
 * </ul>
 *
 * <p>A cause is a kind byte and its chain of class names and messages (read back as {@link
 * RemoteFailure}s, never by instantiating the named classes), except that Troupe's own {@link
 * ActorInitializationException}, {@link ActorKilledException} and {@link DeathPactException} are
 * rebuilt as themselves (the kind byte says which), so that the default supervisor strategy stops
 * an actor on another node as it would here.
 */
public final class DeploymentSerializer implements Serializer {
  private static final byte[] EMPTY = new byte[0];
  private static final int OTHER = 0;
  private static final int INITIALIZATION = 1;
  private static final int KILLED = 2;
  private static final int DEATH_PACT = 3;

  private final WireContext context;

  /** @param system the system whose refs and registry are used */
  public DeploymentSerializer(ActorSystem system) {
    this.context = new WireContext(system);
  }

  @Override
  public int identifier() {
    return 7;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof DeployRequest) {
      return "C";
    } else if (o instanceof DeployAck) {
      return "A";
    } else if (o instanceof DeployRefused) {
      return "R";
    } else if (o instanceof Failed) {
      return "F";
    } else if (o instanceof Suspend) {
      return "S";
    } else if (o instanceof Resume) {
      return "M";
    } else if (o instanceof Recreate) {
      return "E";
    }
    throw new IllegalArgumentException("not a deployment or supervision message: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof Suspend) {
      return EMPTY;
    }
    WireWriter w = new WireWriter(128);
    if (o instanceof DeployRequest d) {
      w.writeString(d.path().toSerializationFormat());
      context.writeRef(w, d.parent());
      w.writeString(d.className());
      w.writeVarInt(d.args().size());
      for (Serialized a : d.args()) {
        if (a == null) {
          w.writeByte(0);
        } else {
          w.writeByte(1);
          w.writeVarInt(a.serializerId());
          w.writeString(a.manifest());
          w.writeBytes(a.bytes());
        }
      }
      w.writeNullableString(d.dispatcher());
      w.writeNullableString(d.mailbox());
    } else if (o instanceof DeployAck a) {
      w.writeString(a.path().toSerializationFormat());
    } else if (o instanceof DeployRefused r) {
      w.writeString(r.path().toSerializationFormat());
      context.writeRef(w, r.parent());
      w.writeString(r.reason());
    } else if (o instanceof Failed f) {
      context.writeRef(w, f.child());
      w.writeSignedVarLong(f.uid());
      writeCause(w, f.cause());
    } else if (o instanceof Resume r) {
      writeOptionalCause(w, r.cause());
    } else if (o instanceof Recreate r) {
      writeOptionalCause(w, r.cause());
    } else {
      throw new IllegalArgumentException("not a deployment or supervision message: " + o.getClass().getName());
    }
    return w.toByteArray();
  }

  /**
   * @param manifest a manifest of this serializer
   * @return the class of the messages it names, or null if it names none
   */
  static Class<?> classOf(String manifest) {
    return switch (manifest) {
      case "C" -> DeployRequest.class;
      case "A" -> DeployAck.class;
      case "R" -> DeployRefused.class;
      case "F" -> Failed.class;
      case "S" -> Suspend.class;
      case "M" -> Resume.class;
      case "E" -> Recreate.class;
      default -> null;
    };
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    WireReader r = new WireReader(bytes, "deployment message '" + manifest + "'");
    Object message;
    switch (manifest) {
      case "C" -> {
        ActorPath path = path(r);
        InternalActorRef parent = context.readRef(r);
        String className = r.readString();
        int n = r.readVarInt();
        if (n > bytes.length) {
          throw new SerializationException("malformed deployment request: " + n + " arguments in " + bytes.length + " bytes");
        }
        List<Serialized> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          args.add(r.readBoolean() ? new Serialized(r.readVarInt(), r.readString(), r.readBytes()) : null);
        }
        message = new DeployRequest(path, parent, className, args, r.readNullableString(), r.readNullableString());
      }
      case "A" -> message = new DeployAck(path(r));
      case "R" -> message = new DeployRefused(path(r), context.readRef(r), r.readString());
      case "F" -> {
        InternalActorRef child = context.readRef(r);
        long uid = r.readSignedVarLong();
        message = new Failed(child, readCause(r), uid);
      }
      case "S" -> message = new Suspend();
      case "M" -> message = new Resume(readOptionalCause(r));
      case "E" -> message = new Recreate(readOptionalCause(r));
      default -> throw new SerializationException(
          "unknown manifest '" + manifest + "' for deployment messages (expected one of C A R F S M E)");
    }
    r.end();
    return message;
  }

  private static ActorPath path(WireReader r) {
    String text = r.readString();
    try {
      return ActorPath.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new SerializationException("malformed actor path '" + text + "': " + e.getMessage(), e);
    }
  }

  private void writeOptionalCause(WireWriter w, Throwable cause) {
    if (cause == null) {
      w.writeByte(0);
    } else {
      w.writeByte(1);
      writeCause(w, cause);
    }
  }

  private Throwable readOptionalCause(WireReader r) {
    return r.readBoolean() ? readCause(r) : null;
  }

  private void writeCause(WireWriter w, Throwable cause) {
    if (cause instanceof ActorInitializationException) {
      w.writeByte(INITIALIZATION);
    } else if (cause instanceof ActorKilledException) {
      w.writeByte(KILLED);
    } else if (cause instanceof DeathPactException d) {
      w.writeByte(DEATH_PACT);
      context.writeRef(w, d.getDeadActor());
    } else {
      w.writeByte(OTHER);
    }
    WireContext.writeFailure(w, cause);
  }

  private Throwable readCause(WireReader r) {
    int kind = r.readByte();
    InternalActorRef dead = kind == DEATH_PACT ? context.readRef(r) : null;
    RemoteFailure chain = WireContext.readFailure(r);
    String message = chain == null ? null : chain.getMessage();
    Throwable cause = chain == null ? null : chain.getCause();
    return switch (kind) {
      case OTHER -> chain;
      case INITIALIZATION -> new ActorInitializationException(null, message == null ? "" : message, cause);
      case KILLED -> new ActorKilledException(message);
      case DEATH_PACT -> dead == null ? chain : new DeathPactException(dead);
      default -> throw new SerializationException("malformed cause: unknown kind " + kind);
    };
  }
}
