package dev.troupe.serialization.internal;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.spi.ClassicRefView;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serializer;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Jackson half of the {@code jackson-json} and {@code jackson-cbor} serializers: one {@link
 * ObjectMapper} per serializer, configured for messages:
 *
 * <ul>
 *   <li>no default typing, ever, and polymorphic handling on unsafe base types ({@code Object},
 *       {@code Serializable}) blocked: the class read is the one the manifest names, and the
 *       fields inside are read as their declared types;
 *   <li>unknown properties ignored (a newer sender may have added fields); anything after the one
 *       value is an error;
 *   <li>fields of any visibility are properties, so a class needs no getters; empty records allowed;
 *   <li>{@code ActorRef}s written as their paths and resolved back through the system's provider,
 *       and so are the refs of every {@link ClassicRefView} present (e.g. the typed {@code
 *       ActorRef<T>}): written as their classic refs' paths, read by resolving and wrapping;
 *   <li>{@code java.time} values, {@code Optional} and its kin, and constructor parameter names
 *       supported out of the box, plus the modules and customizer of {@code
 *       troupe.serialization.jackson} ({@link JacksonSettings}); dates and times as ISO-8601
 *       text, with their offset kept.
 * </ul>
 *
 * <p>Gadget safety: before reading, the manifest's class is loaded without initialization (no
 * static initializer runs) and must be bound to this very serializer in {@code
 * troupe.serialization.bindings}, directly or through a superclass or interface; anything else is
 * refused before Jackson sees it.
 *
 * <p>Speed: each class gets its own {@link ObjectWriter} and each allowed manifest its own {@link
 * ObjectReader}, made once, with the root serializer or deserializer already looked up, so a
 * message costs no type resolution and no look-up in the mapper's caches of types and
 * (de)serializers.
 */
public final class JacksonCodec {
  private final ObjectMapper mapper;
  private final int identifier;
  private final String serializerClass;
  private final WireContext context;
  private final ClassLoader loader = SerializerSetup.classLoader();
  /** Readers of the manifests allowed so far, their classes checked against the bindings. */
  private final Map<String, ObjectReader> readers = new ConcurrentHashMap<>();
  /**
   * A writer per class written, held by this codec (so by its system) only: a {@code ClassValue}
   * would keep the mapper, and through it the system, reachable from the class after the system
   * is gone.
   */
  private final Map<Class<?>, ObjectWriter> writers = new ConcurrentHashMap<>();

  private JacksonCodec(ObjectMapper mapper, int identifier, Class<? extends Serializer> owner, WireContext context) {
    this.mapper = mapper;
    this.identifier = identifier;
    this.serializerClass = owner.getSimpleName();
    this.context = context;
  }

  /**
   * @param system the system whose refs and bindings are used
   * @param identifier the owning serializer's identifier
   * @param owner the owning serializer's class, for messages
   * @return a codec writing JSON text
   */
  public static JacksonCodec json(ActorSystem system, int identifier, Class<? extends Serializer> owner) {
    WireContext context = new WireContext(system);
    return new JacksonCodec(configure(JsonMapper.builder(), context, system, "jackson-json"), identifier, owner, context);
  }

  /**
   * @param system the system whose refs and bindings are used
   * @param identifier the owning serializer's identifier
   * @param owner the owning serializer's class, for messages
   * @return a codec writing CBOR (RFC 8949)
   */
  public static JacksonCodec cbor(ActorSystem system, int identifier, Class<? extends Serializer> owner) {
    WireContext context = new WireContext(system);
    return new JacksonCodec(configure(CBORMapper.builder(), context, system, "jackson-cbor"), identifier, owner, context);
  }

  private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> M configure(
      B builder, WireContext context, ActorSystem system, String name) {
    SimpleModule refs = new SimpleModule("troupe-actor-refs");
    refs.addSerializer(ActorRef.class, new RefWriter());
    refs.addDeserializer(ActorRef.class, new RefReader(context));
    for (ClassicRefView<?> view : RefViews.load(SerializerSetup.classLoader()).all()) {
      addView(refs, view, context);
    }
    builder
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS) // ISO-8601 text keeps an offset; a number would not
        .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
        .enable(MapperFeature.BLOCK_UNSAFE_POLYMORPHIC_BASE_TYPES)
        .visibility(PropertyAccessor.FIELD, Visibility.ANY)
        .addModule(refs);
    JacksonSettings.from(system.settings().config(), SerializerSetup.classLoader()).apply(builder, name);
    return builder.build();
  }

  private static <R> void addView(SimpleModule refs, ClassicRefView<R> view, WireContext context) {
    refs.addSerializer(view.type(), new ViewWriter<>(view));
    refs.addDeserializer(view.type(), new ViewReader<>(view, context));
  }

  /**
   * @param o a message
   * @return its class name
   */
  public String manifest(Object o) {
    return o.getClass().getName();
  }

  /**
   * @param o a message
   * @return its JSON or CBOR bytes
   */
  public byte[] toBinary(Object o) {
    try {
      return writerOf(o.getClass()).writeValueAsBytes(o);
    } catch (IOException e) {
      throw new SerializationException("cannot write " + o.getClass().getName() + ": " + e.getMessage(), e);
    }
  }

  /**
   * @param bytes the bytes
   * @param manifest the class name, which must be bound to this serializer
   * @return the message
   */
  public Object fromBinary(byte[] bytes, String manifest) {
    ObjectReader reader = readerOf(manifest);
    try {
      return reader.readValue(bytes);
    } catch (IOException e) {
      throw new SerializationException("cannot read " + manifest + ": " + e.getMessage(), e);
    }
  }

  private ObjectWriter writerOf(Class<?> c) {
    ObjectWriter w = writers.get(c);
    if (w == null) {
      w = mapper.writerFor(c);
      writers.put(c, w);
    }
    return w;
  }

  /** @return the reader of the class that {@code manifest} names, once that class is allowed */
  private ObjectReader readerOf(String manifest) {
    ObjectReader r = readers.get(manifest);
    if (r != null) {
      return r;
    }
    Class<?> c;
    try {
      c = Class.forName(manifest, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new SerializationException(
          "unknown manifest '" + manifest + "': no such class here (is the sender's version of it on this node?)", e);
    }
    Serializer bound;
    try {
      bound = context.registry().serializerFor(c);
    } catch (SerializationException e) {
      throw refused(manifest, e.getMessage());
    }
    if (bound.identifier() != identifier) {
      throw refused(manifest, "it is bound to " + bound.getClass().getName() + " (id " + bound.identifier() + ")");
    }
    r = mapper.readerFor(c);
    readers.put(manifest, r);
    return r;
  }

  private SerializationException refused(String manifest, String why) {
    return new SerializationException(
        "refusing to read " + manifest + " with " + serializerClass + " (id " + identifier + "): only classes"
            + " bound to it in troupe.serialization.bindings (directly or through a superclass or interface)"
            + " are read; " + why);
  }

  /** Writes a ref as its full path with uid. */
  private static final class RefWriter extends StdSerializer<ActorRef> {
    RefWriter() {
      super(ActorRef.class);
    }

    @Override
    public void serialize(ActorRef ref, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeString(WireContext.pathOf(ref));
    }
  }

  /** Reads a path and resolves it through the system's provider. */
  private static final class RefReader extends StdDeserializer<ActorRef> {
    private final transient WireContext context;

    RefReader(WireContext context) {
      super(ActorRef.class);
      this.context = context;
    }

    @Override
    public ActorRef deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (ActorRef) ctxt.handleUnexpectedToken(ActorRef.class, p);
      }
      return context.resolve(p.getText());
    }
  }

  /** Writes a view's ref (e.g. a typed {@code ActorRef<T>}) as its classic ref's full path with uid. */
  private static final class ViewWriter<R> extends StdSerializer<R> {
    private final transient ClassicRefView<R> view;

    ViewWriter(ClassicRefView<R> view) {
      super(view.type());
      this.view = view;
    }

    @Override
    public void serialize(R ref, JsonGenerator gen, SerializerProvider provider) throws IOException {
      gen.writeString(WireContext.pathOf(RefViews.toClassic(view, ref)));
    }
  }

  /** Reads a path, resolves it through the system's provider and wraps the classic ref in the view's type. */
  private static final class ViewReader<R> extends StdDeserializer<R> {
    private final transient ClassicRefView<R> view;
    private final transient WireContext context;

    ViewReader(ClassicRefView<R> view, WireContext context) {
      super(view.type());
      this.view = view;
      this.context = context;
    }

    @Override
    public R deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return view.type().cast(ctxt.handleUnexpectedToken(view.type(), p));
      }
      return view.fromClassic(context.resolve(p.getText()));
    }
  }
}
