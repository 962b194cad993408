package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Status;
import dev.troupe.actor.Terminated;
import dev.troupe.serialization.SerializationException;
import java.util.Optional;

/**
 * Troupe's built-in messages, identifier 5, in the compact binary encoding of {@link WireWriter}
 * with a one-letter manifest:
 *
 * <ul>
 *   <li>{@code I} {@link Identify}: its message id, nested (any bound type: serializer id,
 *       manifest, bytes);
 *   <li>{@code A} {@link ActorIdentity}: the correlation id, nested; the ref's path or none;
 *   <li>{@code S} {@link Status.Success}: the status, nested;
 *   <li>{@code F} {@link Status.Failure}: the cause chain as class names and messages, read back
 *       as {@link dev.troupe.serialization.RemoteFailure}s (never by instantiating the class);
 *   <li>{@code P} {@link PoisonPill}, {@code K} {@link Kill}: no bytes;
 *   <li>{@code T} {@link Terminated}: the actor's path, then one byte of flags.
 * </ul>
 *
 * <p>A nested value is read in place ({@link WireContext#readNested}); values nested more than
 * {@value WireReader#MAX_DEPTH} deep are refused.
 *
 * <p>Why not CBOR through Jackson: the fields here are few and fixed, so a hand-written layout needs
 * neither field names nor type tags, and reading needs no reflection. Measured (bytes, this layout
 * against Jackson CBOR of a record with the same fields): {@code Terminated} of {@code
 * troupe://sys@127.0.0.1:2552/user/worker#1234567890} 52 against 99, {@code Identify(42)} 6
 * against 47, {@code Status.Failure(new IllegalStateException("boom"))} 38 against 59. CBOR arrays
 * (no field names) come close (55 and 6) but then the layout is hand-written anyway.
 */
public final class MessageSerializer implements InPlaceSerializer {
  private static final byte[] EMPTY = new byte[0];

  private final WireContext context;

  /** @param system the system whose refs and registry are used */
  public MessageSerializer(ActorSystem system) {
    this.context = new WireContext(system);
  }

  @Override
  public int identifier() {
    return 5;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Identify) {
      return "I";
    } else if (o instanceof ActorIdentity) {
      return "A";
    } else if (o instanceof Status.Success) {
      return "S";
    } else if (o instanceof Status.Failure) {
      return "F";
    } else if (o instanceof PoisonPill) {
      return "P";
    } else if (o instanceof Kill) {
      return "K";
    } else if (o instanceof Terminated) {
      return "T";
    }
    throw new IllegalArgumentException("not one of Troupe's built-in messages: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof PoisonPill || o instanceof Kill) {
      return EMPTY;
    }
    WireWriter w = new WireWriter(64);
    if (o instanceof Identify i) {
      context.writeNested(w, i.messageId());
    } else if (o instanceof ActorIdentity a) {
      context.writeNested(w, a.correlationId());
      context.writeRef(w, a.ref() == null ? null : a.ref().orElse(null));
    } else if (o instanceof Status.Success s) {
      context.writeNested(w, s.status());
    } else if (o instanceof Status.Failure f) {
      WireContext.writeFailure(w, f.cause());
    } else if (o instanceof Terminated t) {
      context.writeDeath(w, t.actor(), t.existenceConfirmed(), t.addressTerminated());
    } else {
      throw new IllegalArgumentException("not one of Troupe's built-in messages: " + o.getClass().getName());
    }
    return w.toByteArray();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return read(new WireReader(bytes, "built-in message", manifest), manifest);
  }

  /**
   * @param manifest a manifest of this serializer
   * @return the class of the messages it names, or null if it names none
   */
  public static Class<?> classOf(String manifest) {
    return switch (manifest) {
      case "I" -> Identify.class;
      case "A" -> ActorIdentity.class;
      case "S" -> Status.Success.class;
      case "F" -> Status.Failure.class;
      case "P" -> PoisonPill.class;
      case "K" -> Kill.class;
      case "T" -> Terminated.class;
      default -> null;
    };
  }

  @Override
  public Object read(WireReader r, String manifest) {
    Object message;
    switch (manifest) {
      case "I" -> message = new Identify(context.readNested(r));
      case "A" -> message = new ActorIdentity(context.readNested(r), Optional.ofNullable(context.readRef(r)));
      case "S" -> message = new Status.Success(context.readNested(r));
      case "F" -> message = new Status.Failure(WireContext.readFailure(r));
      case "P" -> message = PoisonPill.getInstance();
      case "K" -> message = Kill.getInstance();
      case "T" -> {
        WireContext.Death d = context.readDeath(r);
        message = new Terminated(d.actor(), d.existenceConfirmed(), d.addressTerminated());
      }
      default -> throw new SerializationException(
          "unknown manifest '" + manifest + "' for Troupe's built-in messages (expected one of I A S F P K T)");
    }
    r.end();
    return message;
  }
}
