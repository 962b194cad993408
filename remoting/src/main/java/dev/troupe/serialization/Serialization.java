package dev.troupe.serialization;

import dev.troupe.actor.ActorSystem;
import dev.troupe.serialization.internal.Bindings;
import dev.troupe.serialization.internal.SerializerSetup;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The serializers of one actor system and the bindings that choose among them: what turns a
 * message into bytes for another node, and back.
 *
 * <p>Configured under {@code troupe.serialization}:
 *
 * <pre>{@code
 * troupe.serialization {
 *   serializers { my-format = "com.example.MyFormatSerializer" }  # name -> Serializer class
 *   bindings {
 *     "com.example.Order" = jackson-cbor       # a class ...
 *     "com.example.Event" = jackson-json       # ... or an interface or superclass of many
 *     "com.example.Legacy" = my-format
 *   }
 * }
 * }</pre>
 *
 * <p>The most specific binding wins: the class itself, then its nearest bound superclass, then its
 * nearest bound interfaces (one that another as near extends drops out; two unrelated ones as
 * near, bound to different serializers, are an error until the class is bound itself), and {@code
 * java.lang.Object}, if bound, last. A binding to {@code none} removes one made elsewhere (e.g. in
 * a {@code reference.conf}). Troupe's own messages, {@code String}, {@code byte[]}, the boxed
 * primitives and {@code ActorRef} are bound by default; {@code jackson-cbor} and {@code
 * jackson-json} serialize users' records and classes once bound.
 *
 * <p>The registry is created on first use, once per system, and checks the whole configuration
 * then: every problem is a {@link dev.troupe.actor.ConfigurationException} naming its key. Errors
 * of one message are {@link SerializationException}s. Thread-safe.
 */
public final class Serialization {
  private static final Map<ActorSystem, Serialization> BY_SYSTEM = new ConcurrentHashMap<>();
  private static final ThreadLocal<Set<ActorSystem>> CREATING =
      ThreadLocal.withInitial(() -> Collections.newSetFromMap(new IdentityHashMap<>()));

  private static final int DIRECT_IDS = 256;

  private final Map<Integer, Serializer> byId = new HashMap<>();
  /** {@link #byId} for identifiers 0..{@value #DIRECT_IDS}-1: looked up per message, without boxing or hashing. */
  private final Serializer[] directById = new Serializer[DIRECT_IDS];
  private final Map<Serializer, String> names = new IdentityHashMap<>();
  private final Map<Class<?>, Serializer> bindings;
  private final Map<Class<?>, Serializer> resolved = new ConcurrentHashMap<>();

  private Serialization(ActorSystem system) {
    SerializerSetup setup = SerializerSetup.load(system, SerializerSetup.classLoader());
    setup.serializers().forEach((name, s) -> {
      byId.put(s.identifier(), s);
      names.put(s, name);
    });
    byId.forEach((id, s) -> {
      if (id >= 0 && id < DIRECT_IDS) {
        directById[id] = s;
      }
    });
    this.bindings = setup.bindings();
  }

  /**
   * The registry of {@code system}, created (and its configuration checked) on the first call.
   * It lives as long as the system: after termination a call creates a fresh one each time.
   *
   * @param system an actor system
   * @return its registry
   * @throws dev.troupe.actor.ConfigurationException if {@code troupe.serialization} is invalid
   * @throws IllegalStateException if called from a serializer's constructor
   */
  public static Serialization get(ActorSystem system) {
    Objects.requireNonNull(system, "system");
    Serialization s = BY_SYSTEM.get(system);
    if (s != null) {
      return s;
    }
    Set<ActorSystem> creating = CREATING.get();
    if (!creating.add(system)) {
      throw new IllegalStateException(
          "Serialization.get(" + system.name() + ") was called while that system's serializers are being"
              + " created: a serializer's constructor must not call it; look the registry up when first used");
    }
    try {
      s = new Serialization(system);
    } finally {
      creating.remove(system);
      if (creating.isEmpty()) {
        CREATING.remove();
      }
    }
    Serialization raced = BY_SYSTEM.putIfAbsent(system, s);
    if (raced != null) {
      return raced;
    }
    Serialization mine = s;
    // Runs at once when the system has already terminated: nothing outlives its system here.
    system.getWhenTerminated().whenComplete((t, e) -> BY_SYSTEM.remove(system, mine));
    return s;
  }

  /**
   * The serializer bound to {@code c} by the most specific binding.
   *
   * @param c a class
   * @return its serializer
   * @throws SerializationException if no binding applies (naming the class and the key to bind it),
   *     or two apply equally
   */
  public Serializer serializerFor(Class<?> c) {
    Serializer s = resolved.get(c);
    if (s != null) {
      return s;
    }
    s = Bindings.resolve(c, bindings, this::describe);
    if (s == null) {
      throw new SerializationException(
          "no serializer is bound for " + c.getName() + " (nor for any of its superclasses or interfaces):"
              + " bind it in troupe.serialization.bindings, e.g. \"" + c.getName() + "\" = jackson-cbor");
    }
    resolved.put(c, s);
    return s;
  }

  /**
   * @param id a serializer identifier
   * @return the serializer with that identifier
   * @throws SerializationException if this system has none
   */
  public Serializer serializerById(int id) {
    Serializer s = id >= 0 && id < DIRECT_IDS ? directById[id] : byId.get(id);
    if (s == null) {
      throw new SerializationException(
          "no serializer with identifier " + id + " in troupe.serialization.serializers (this system has "
              + byId.values().stream().map(this::describe).sorted().collect(Collectors.joining(", "))
              + "); the sender has a serializer that this node lacks");
    }
    return s;
  }

  /**
   * Serializes {@code o} with the serializer bound to its class.
   *
   * @param o a message
   * @return the serializer's identifier, the manifest and the bytes
   * @throws SerializationException if no serializer is bound, or the serializer failed
   */
  public Serialized serialize(Object o) {
    Objects.requireNonNull(o, "the object to serialize");
    Serializer s = serializerFor(o.getClass());
    String manifest;
    byte[] bytes;
    try {
      manifest = s.manifest(o);
      bytes = s.toBinary(o);
    } catch (Exception e) {
      throw new SerializationException(
          "serializer " + describe(s) + " failed to serialize " + o.getClass().getName() + ": " + reason(e), e);
    }
    if (bytes == null) {
      throw new SerializationException(
          "serializer " + describe(s) + " returned no bytes for " + o.getClass().getName());
    }
    return new Serialized(s.identifier(), manifest == null ? "" : manifest, bytes);
  }

  /**
   * Rebuilds an object that {@link #serialize} (here or on another node) turned into bytes.
   *
   * @param serializerId the identifier of the serializer that wrote it
   * @param manifest its manifest
   * @param bytes its bytes
   * @return the object
   * @throws SerializationException if the identifier or manifest is unknown, or the serializer
   *     failed, also with a {@code StackOverflowError} or an {@code OutOfMemoryError} (bytes that
   *     nest too deep, or claim more than any heap holds): a receiver drops the message and goes on
   */
  public Object deserialize(int serializerId, String manifest, byte[] bytes) {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(bytes, "bytes");
    Serializer s = serializerById(serializerId);
    Object o;
    try {
      o = s.fromBinary(bytes, manifest);
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      // an Error here is what the bytes made the serializer do, not the state of this thread: the
      // stack is unwound and the allocation that failed is gone, so the caller drops the message
      throw new SerializationException(
          "serializer " + describe(s) + " failed to deserialize " + bytes.length + " bytes with manifest '"
              + manifest + "': " + reason(e), e);
    }
    if (o == null) {
      throw new SerializationException(
          "serializer " + describe(s) + " read null from manifest '" + manifest + "'");
    }
    return o;
  }

  /** {@code 'name' (id 21, com.example.TheClass)} */
  private String describe(Serializer s) {
    return "'" + names.get(s) + "' (id " + s.identifier() + ", " + s.getClass().getName() + ")";
  }

  private static String reason(Throwable e) {
    return e instanceof SerializationException ? e.getMessage() : e.toString();
  }
}
