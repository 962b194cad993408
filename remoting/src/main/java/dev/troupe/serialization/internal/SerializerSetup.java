package dev.troupe.serialization.internal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.serialization.Serializer;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code troupe.serialization}, creates each configured serializer and checks the bindings.
 * Every problem is a {@link ConfigurationException} naming its key, thrown while the registry is
 * created, never later at the first message.
 *
 * @param serializers the serializers by configured name, in name order
 * @param bindings the bound classes and interfaces
 */
public record SerializerSetup(Map<String, Serializer> serializers, Map<Class<?>, Serializer> bindings) {
  private static final Logger LOG = LoggerFactory.getLogger(SerializerSetup.class);
  private static final String ROOT = "troupe.serialization";
  private static final String SERIALIZERS = ROOT + ".serializers";
  private static final String BINDINGS = ROOT + ".bindings";
  private static final String ALLOW_JAVA = ROOT + ".allow-java-serialization";
  /** A binding to this name removes the binding (e.g. one of reference.conf). */
  private static final String NONE = "none";

  /**
   * @param system the system, for its configuration and the serializers' constructors
   * @param loader the class loader of serializer and bound classes
   * @return the checked setup
   * @throws ConfigurationException naming the key of the first problem found
   */
  public static SerializerSetup load(ActorSystem system, ClassLoader loader) {
    Config config = system.settings().config();
    if (read(ALLOW_JAVA, () -> config.getBoolean(ALLOW_JAVA))) {
      throw new ConfigurationException(
          ALLOW_JAVA + " = on is not supported: Troupe ships no Java serializer and never reads Java"
              + " serialization (its bytes can make a node construct any class on its class path)."
              + " Bind your message classes to jackson-cbor (or jackson-json) instead, e.g."
              + " troupe.serialization.bindings { \"com.example.Order\" = jackson-cbor } (or a common"
              + " interface of them), and remove " + ALLOW_JAVA);
    }
    Map<String, Serializer> serializers = createSerializers(system, config, loader);
    return new SerializerSetup(serializers, bindings(config, loader, serializers));
  }

  private static Map<String, Serializer> createSerializers(ActorSystem system, Config config, ClassLoader loader) {
    Map<String, ConfigValue> entries = read(SERIALIZERS, () -> new TreeMap<>(config.getObject(SERIALIZERS)));
    Map<String, Serializer> out = new LinkedHashMap<>();
    Map<Integer, String> ids = new HashMap<>();
    for (Map.Entry<String, ConfigValue> e : entries.entrySet()) {
      String key = ConfigUtil.joinPath("troupe", "serialization", "serializers", e.getKey());
      if (e.getValue().valueType() != ConfigValueType.STRING) {
        throw new ConfigurationException(
            "invalid configuration value at '" + key + "': expected the class name of a "
                + Serializer.class.getName() + ", was " + e.getValue().render());
      }
      Serializer s = instantiate(key, (String) e.getValue().unwrapped(), system, loader);
      int id = s.identifier();
      if (id < 0) {
        throw new ConfigurationException(key + ": identifier " + id + " is negative; use 100 or above");
      }
      String clash = ids.putIfAbsent(id, e.getKey());
      if (clash != null) {
        throw new ConfigurationException(
            SERIALIZERS + ": '" + clash + "' and '" + e.getKey() + "' have the same identifier " + id
                + " (the identifier names the serializer on the wire, so each must be unique)");
      }
      if (id < 100 && !s.getClass().getName().startsWith("dev.troupe.")) {
        LOG.warn("{}: identifier {} of {} is in 0..99, which is reserved for Troupe's own serializers",
            key, id, s.getClass().getName());
      }
      out.put(e.getKey(), s);
    }
    return out;
  }

  private static Serializer instantiate(String key, String className, ActorSystem system, ClassLoader loader) {
    Class<?> c;
    try {
      c = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError ex) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': class " + className + " not found", ex);
    }
    if (!Serializer.class.isAssignableFrom(c)) {
      throw new ConfigurationException(
          "invalid configuration value at '" + key + "': " + className + " does not implement " + Serializer.class.getName());
    }
    try {
      Constructor<?> ctor;
      Object[] args;
      try {
        ctor = c.getConstructor(ActorSystem.class);
        args = new Object[] {system};
      } catch (NoSuchMethodException withoutSystem) {
        ctor = c.getConstructor();
        args = new Object[0];
      }
      return (Serializer) ctor.newInstance(args);
    } catch (InvocationTargetException ex) {
      throw new ConfigurationException(key + " = " + className + ": its constructor failed: " + ex.getCause(), ex.getCause());
    } catch (ReflectiveOperationException | RuntimeException ex) {
      throw new ConfigurationException(
          key + " = " + className + ": needs a public constructor taking " + ActorSystem.class.getName()
              + " or a public no-argument one (" + ex + ")", ex);
    }
  }

  private static Map<Class<?>, Serializer> bindings(Config config, ClassLoader loader, Map<String, Serializer> serializers) {
    Config section = read(BINDINGS, () -> config.getConfig(BINDINGS));
    Map<Class<?>, Serializer> out = new HashMap<>();
    Set<String> named = new HashSet<>();
    for (Map.Entry<String, ConfigValue> e : section.entrySet()) {
      // A quoted key ("com.example.Order") is one path element, an unquoted one several: either way
      // the class name is the elements joined by dots.
      String className = String.join(".", ConfigUtil.splitPath(e.getKey()));
      String key = ConfigUtil.joinPath("troupe", "serialization", "bindings", className);
      if (e.getValue().valueType() != ConfigValueType.STRING) {
        throw new ConfigurationException(
            "invalid configuration value at '" + key + "': expected a serializer name, was " + e.getValue().render());
      }
      String name = (String) e.getValue().unwrapped();
      named.add(className);
      if (name.equals(NONE)) {
        continue;
      }
      Serializer s = serializers.get(name);
      if (s == null) {
        throw new ConfigurationException(
            "invalid configuration value at '" + key + "': no serializer named '" + name + "' in "
                + SERIALIZERS + " (there are: " + String.join(", ", serializers.keySet()) + ")");
      }
      try {
        out.put(Class.forName(className, false, loader), s);
      } catch (ClassNotFoundException | LinkageError ex) {
        throw new ConfigurationException(
            "invalid configuration key '" + key + "': class " + className + " not found (a binding names a class or"
                + " interface by its binary name, e.g. \"com.example.Outer$Inner\")", ex);
      }
    }
    bindRefViews(out, named, loader);
    return Map.copyOf(out);
  }

  /**
   * Binds the type of each {@link dev.troupe.actor.spi.ClassicRefView} present (e.g. the typed
   * {@code ActorRef<T>}) to the serializer of classic refs, so that such a ref sent as a message
   * travels as its classic ref's path; a binding of that type in the configuration (or its removal
   * with {@code none}) wins, and nothing is bound if classic refs are not bound to Troupe's ref
   * serializer.
   */
  private static void bindRefViews(Map<Class<?>, Serializer> out, Set<String> named, ClassLoader loader) {
    if (!(out.get(ActorRef.class) instanceof ActorRefSerializer refs)) {
      return;
    }
    for (var view : RefViews.load(loader).all()) {
      if (!named.contains(view.type().getName())) {
        out.putIfAbsent(view.type(), refs);
      }
    }
  }

  /**
   * @return the loader of serializer, bound and manifest classes: the context class loader of the
   *     thread that creates the registry, or else this module's
   */
  public static ClassLoader classLoader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : SerializerSetup.class.getClassLoader();
  }

  /** Runs a read of {@code key}, turning Lightbend Config's errors into ours. */
  private static <T> T read(String key, java.util.function.Supplier<T> reader) {
    try {
      return reader.get();
    } catch (ConfigException ex) {
      throw new ConfigurationException("invalid configuration value at '" + key + "': " + ex.getMessage(), ex);
    }
  }
}
