package dev.troupe.serialization.internal;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ExpectedFailure;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Status;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.serialization.RemoteFailure;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serialization;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * What the built-in serializers share: refs written as their paths (with uid) and resolved back
 * through the system's ref provider, values nested in a message written through the registry (so
 * any bound type can be a message id or a status) and read in place, at most {@value
 * WireReader#MAX_DEPTH} deep, and throwables written as class names and messages.
 */
public final class WireContext {
  /** At most this many throwables of a cause chain are written. */
  static final int MAX_CAUSES = 16;

  private final ActorSystem system;
  private final RuntimeSystem runtime;
  private volatile Serialization registry; // looked up on first use: serializers are built by it

  /**
   * @param system the system whose refs are written and resolved
   * @throws IllegalArgumentException if {@code system} is not Troupe's runtime
   */
  public WireContext(ActorSystem system) {
    if (!(system instanceof RuntimeSystem r)) {
      throw new IllegalArgumentException("not a Troupe runtime system: " + system);
    }
    this.system = system;
    this.runtime = r;
  }

  /** @return the registry of this context's system */
  public Serialization registry() {
    Serialization r = registry;
    if (r == null) {
      r = Serialization.get(system);
      registry = r;
    }
    return r;
  }

  /**
   * @param ref a ref
   * @return its full path with uid, as the provider resolves it
   */
  public static String pathOf(ActorRef ref) {
    return ref.path().toSerializationFormat();
  }

  /**
   * @param path a full path, with uid where known
   * @return the ref the system's provider makes of it: a live local actor, a remote one, or one
   *     that sends to dead letters
   * @throws SerializationException if the text is not an actor path
   */
  public InternalActorRef resolve(String path) {
    ActorPath p;
    try {
      p = ActorPath.fromString(path);
    } catch (IllegalArgumentException e) {
      throw new SerializationException("malformed actor path '" + path + "': " + e.getMessage(), e);
    }
    return runtime.provider().resolveActorRef(p);
  }

  /**
   * @param w the output
   * @param ref a ref or null
   */
  public void writeRef(WireWriter w, ActorRef ref) {
    w.writeNullableString(ref == null ? null : pathOf(ref));
  }

  /**
   * @param r the input
   * @return the resolved ref, or null
   */
  public InternalActorRef readRef(WireReader r) {
    String path = r.readNullableString();
    return path == null ? null : resolve(path);
  }

  /** A death as it travels: the actor, and how it went (see {@code Terminated}). */
  public record Death(InternalActorRef actor, boolean existenceConfirmed, boolean addressTerminated) {}

  private static final int EXISTENCE_CONFIRMED = 1;
  private static final int ADDRESS_TERMINATED = 2;

  /**
   * Writes the actor's path, then one byte of flags.
   *
   * @param w the output
   * @param actor the actor that terminated
   * @param existenceConfirmed whether it was known to exist
   * @param addressTerminated whether its whole node went
   */
  public void writeDeath(WireWriter w, ActorRef actor, boolean existenceConfirmed, boolean addressTerminated) {
    writeRef(w, actor);
    w.writeByte((existenceConfirmed ? EXISTENCE_CONFIRMED : 0) | (addressTerminated ? ADDRESS_TERMINATED : 0));
  }

  /**
   * @param r the input
   * @return what {@link #writeDeath} wrote
   */
  public Death readDeath(WireReader r) {
    InternalActorRef actor = readRef(r);
    int flags = r.readByte();
    if (flags > (EXISTENCE_CONFIRMED | ADDRESS_TERMINATED)) {
      throw new SerializationException("malformed death notice of " + actor + ": unknown flags " + flags);
    }
    return new Death(actor, (flags & EXISTENCE_CONFIRMED) != 0, (flags & ADDRESS_TERMINATED) != 0);
  }

  /**
   * Writes a value of any bound class (or null) nested in a message: presence, serializer id,
   * manifest and bytes.
   *
   * @param w the output
   * @param value the value or null
   * @throws SerializationException if values are nested in {@code value} so deep that the whole
   *     would be more than {@value WireReader#MAX_DEPTH} deep, which no reader accepts
   */
  public void writeNested(WireWriter w, Object value) {
    if (value == null) {
      w.writeByte(0);
      return;
    }
    if (depthOf(value) > WireReader.MAX_DEPTH) {
      throw new SerializationException(
          "values nested more than " + WireReader.MAX_DEPTH + " deep (" + value.getClass().getName()
              + " in a message): no node reads that");
    }
    Serialized s = registry().serialize(value);
    w.writeByte(1);
    w.writeVarInt(s.serializerId());
    w.writeString(s.manifest());
    w.writeBytes(s.bytes());
  }

  /**
   * @param value a value nested in a message
   * @return how deep its innermost nested value lies, counting {@code value} as 1 (stops counting
   *     past {@value WireReader#MAX_DEPTH})
   */
  private static int depthOf(Object value) {
    int depth = 0;
    for (Object v = value; v != null && depth <= WireReader.MAX_DEPTH; v = nestedIn(v)) {
      depth++;
    }
    return depth;
  }

  /** @return the value that Troupe's serializers write nested in {@code v}, or null */
  private static Object nestedIn(Object v) {
    if (v instanceof Identify i) {
      return i.messageId();
    } else if (v instanceof ActorIdentity a) {
      return a.correlationId();
    } else if (v instanceof Status.Success s) {
      return s.status();
    } else if (v instanceof ActorSelectionMessage m) {
      return m.message();
    }
    return null;
  }

  /**
   * Reads a nested value in place when one of Troupe's serializers wrote it (an {@link
   * InPlaceSerializer} reads a {@link WireReader#nested} view, one level deeper), or from its own
   * copy of its bytes when another serializer did.
   *
   * @param r the input
   * @return the value {@link #writeNested} wrote
   * @throws SerializationException if it is malformed, or nested more than {@value
   *     WireReader#MAX_DEPTH} deep
   */
  public Object readNested(WireReader r) {
    if (!r.readBoolean()) {
      return null;
    }
    int id = r.readVarInt();
    String manifest = r.readString();
    WireReader view = r.nested(r.readVarInt(), id, manifest);
    Serialization registry = registry();
    if (registry.serializerById(id) instanceof InPlaceSerializer s) {
      return s.read(view, manifest);
    }
    return registry.deserialize(id, manifest, view.readRemaining());
  }

  /**
   * Writes a throwable and its causes (at most {@value #MAX_CAUSES}) as class names, messages and
   * whether each is an {@link ExpectedFailure}.
   * A {@link RemoteFailure} is written under its original class name.
   *
   * @param w the output
   * @param t the throwable or null
   */
  public static void writeFailure(WireWriter w, Throwable t) {
    List<Throwable> chain = new ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable e = t; e != null && chain.size() < MAX_CAUSES && seen.add(e); e = e.getCause()) {
      chain.add(e);
    }
    w.writeVarInt(chain.size());
    for (Throwable e : chain) {
      w.writeString(e instanceof RemoteFailure rf ? rf.originalClassName() : e.getClass().getName());
      w.writeNullableString(e.getMessage());
      w.writeByte((e instanceof RemoteFailure rf ? rf.expectedFailure() : e instanceof ExpectedFailure) ? 1 : 0);
    }
  }

  /**
   * Reads what {@link #writeFailure} wrote, never instantiating the named classes.
   *
   * @param r the input
   * @return the failure as a chain of {@link RemoteFailure}s, or null
   */
  public static RemoteFailure readFailure(WireReader r) {
    int n = r.readVarInt();
    if (n > MAX_CAUSES) {
      throw new SerializationException("malformed failure: " + n + " causes, at most " + MAX_CAUSES + " are written");
    }
    String[] names = new String[n];
    String[] messages = new String[n];
    boolean[] expected = new boolean[n];
    for (int i = 0; i < n; i++) {
      names[i] = r.readString();
      messages[i] = r.readNullableString();
      expected[i] = r.readBoolean();
      if (names[i].isEmpty()) {
        throw new SerializationException("malformed failure: empty class name");
      }
    }
    RemoteFailure f = null;
    for (int i = n - 1; i >= 0; i--) {
      f = new RemoteFailure(names[i], messages[i], f, expected[i]);
    }
    return f;
  }
}
