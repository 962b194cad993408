package dev.troupe.persistence.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The event adapters of one journal plugin, as its section configures them, and which of them an
 * event goes through: what {@code Persistence.adaptersFor(journalPluginId)} returns, made once per
 * plugin. Thread-safe.
 *
 * <pre>{@code
 * my-journal {
 *   class = "dev.troupe.persistence.internal.InMemoryJournal"
 *   event-adapters {
 *     upcast = "com.example.UpcastV1"          # an EventAdapter, made once for this plugin
 *     tag = "com.example.TagOrders"
 *   }
 *   event-adapter-bindings {
 *     "com.example.OrderPlacedV1" = upcast     # a class or interface: its name, quoted
 *     "com.example.OrderEvent" = [tag, upcast] # several adapters
 *   }
 * }
 * }</pre>
 *
 * <p>Which binding an event's class uses: of the bound classes and interfaces it is an instance of,
 * the most specific one, i.e. the one that is a subtype of all the others that match (the class
 * itself over its superclasses, a subclass over its superclass, an interface over those it
 * extends). When no single one is most specific (two unrelated interfaces, or an interface and an
 * unrelated superclass), using the event fails with a {@link ConfigurationException} naming both
 * bindings; binding the class itself settles it. An event whose class matches no binding passes
 * unchanged. Each class is resolved once and remembered.
 *
 * <p>Several adapters bound to one class: writing goes through the one that is not a {@link
 * ReadEventAdapter} (more than one such is refused when the section is read; none writes the event
 * as it is); reading goes through each one that is not a {@link WriteEventAdapter}, in the order
 * of the list, and the events they return are concatenated (none reads the event as it is).
 *
 * <p>Reading is bound by the class of the stored event, writing by the class of the persisted one:
 * an adapter whose {@code toJournal} stores another class is bound to that class too if its {@code
 * fromJournal} should read it back.
 */
public final class EventAdapters {
  private static final EventAdapters NONE = new EventAdapters("", Map.of());
  private static final Bound UNBOUND = new Bound("", null, List.of(), null);

  private final String path;
  private final Map<Class<?>, Bound> bindings; // in the order of the section
  private final boolean empty;
  private final Map<Class<?>, Bound> resolved = new ConcurrentHashMap<>();

  private EventAdapters(String path, Map<Class<?>, Bound> bindings) {
    this.path = path;
    this.bindings = bindings;
    this.empty = bindings.isEmpty();
  }

  /** @return adapters that bind nothing: every event passes unchanged */
  public static EventAdapters none() {
    return NONE;
  }

  /**
   * Reads a journal plugin's {@code event-adapters} and {@code event-adapter-bindings} and makes its
   * adapters.
   *
   * @param system the system the adapters serve (handed to their constructors that take it)
   * @param section the plugin's section
   * @param path the path of the section, for messages
   * @return the adapters; {@link #none()}'s equal when the section binds nothing
   * @throws ConfigurationException naming the key, if a value is malformed, a class is missing, an
   *     adapter cannot be made, a binding names an adapter not in {@code event-adapters}, or one
   *     class is bound to more than one adapter that writes
   */
  public static EventAdapters create(ActorSystem system, Config section, String path) {
    boolean hasAdapters = section.hasPath("event-adapters");
    boolean hasBindings = section.hasPath("event-adapter-bindings");
    if (!hasAdapters && !hasBindings) {
      return NONE;
    }
    ClassLoader loader = loader();
    Map<String, EventAdapter> adapters = new LinkedHashMap<>();
    if (hasAdapters) {
      for (Map.Entry<String, ConfigValue> e : object(section, "event-adapters", path).entrySet()) {
        String key = path + "." + ConfigUtil.joinPath("event-adapters", e.getKey());
        adapters.put(e.getKey(), make(system, key, string(e.getValue(), key), loader));
      }
    }
    Map<String, ConfigValue> bound = new LinkedHashMap<>();
    if (hasBindings) {
      flatten(object(section, "event-adapter-bindings", path), "", bound);
    }
    Map<Class<?>, Bound> bindings = new LinkedHashMap<>();
    for (Map.Entry<String, ConfigValue> e : bound.entrySet()) {
      String className = e.getKey();
      String key = path + "." + ConfigUtil.joinPath("event-adapter-bindings", className);
      List<String> names = names(e.getValue(), key);
      Class<?> c;
      try {
        c = Class.forName(className, false, loader);
      } catch (ClassNotFoundException | LinkageError x) {
        throw new ConfigurationException(key + ": no class or interface " + className + " on the class path", x);
      }
      EventAdapter writer = null;
      List<EventAdapter> readers = new ArrayList<>(names.size());
      for (String name : names) {
        EventAdapter a = adapters.get(name);
        if (a == null) {
          throw new ConfigurationException(key + " names adapter [" + name + "], which is not in " + path
              + ".event-adapters " + adapters.keySet());
        }
        if (!(a instanceof ReadEventAdapter)) {
          if (writer != null && writer != a) {
            throw new ConfigurationException(key + " binds more than one adapter that writes (" + names
                + "): an event is written once; make all but one of them a ReadEventAdapter");
          }
          writer = a;
        }
        if (!(a instanceof WriteEventAdapter)) {
          readers.add(a);
        }
      }
      bindings.put(c, new Bound(key, writer, List.copyOf(readers), null));
    }
    return bindings.isEmpty() ? NONE : new EventAdapters(path, bindings);
  }

  /** @return whether nothing is bound: callers skip the adapters altogether */
  public boolean isEmpty() {
    return empty;
  }

  /**
   * @param event an event a persistent actor persists (without its {@code Tagged} wrapper)
   * @return what the journal stores: the event itself if no adapter that writes is bound to its
   *     class; possibly a {@link dev.troupe.persistence.Tagged}
   * @throws ConfigurationException if the event's class matches two bindings equally
   */
  public Object toJournal(Object event) {
    if (empty) {
      return event;
    }
    Bound b = resolve(event.getClass());
    if (b.writer == null) {
      return event;
    }
    Object stored = b.writer.toJournal(event);
    if (stored == null) {
      throw new IllegalStateException(b.writer.getClass().getName() + ".toJournal (" + b.key + ") returned null for "
          + event.getClass().getName());
    }
    return stored;
  }

  /**
   * @param event an event as the journal stored it
   * @param manifest its manifest ({@code ""} where none is stored)
   * @return the events the actor sees instead: the event alone if no adapter that reads is bound
   *     to its class
   * @throws ConfigurationException if the event's class matches two bindings equally
   */
  public EventSeq fromJournal(Object event, String manifest) {
    if (empty) {
      return EventSeq.single(event);
    }
    Bound b = resolve(event.getClass());
    List<EventAdapter> readers = b.readers;
    if (readers.isEmpty()) {
      return EventSeq.single(event);
    }
    if (readers.size() == 1) {
      return read(readers.get(0), b, event, manifest);
    }
    List<Object> all = new ArrayList<>();
    for (EventAdapter a : readers) {
      all.addAll(read(a, b, event, manifest).events());
    }
    return EventSeq.create(all);
  }

  private static EventSeq read(EventAdapter a, Bound b, Object event, String manifest) {
    EventSeq s = a.fromJournal(event, manifest);
    if (s == null) {
      throw new IllegalStateException(a.getClass().getName() + ".fromJournal (" + b.key + ") returned null for "
          + event.getClass().getName() + ": return EventSeq.empty() to drop an event");
    }
    return s;
  }

  @Override
  public String toString() {
    return "EventAdapters of [" + path + "]: " + bindings.keySet();
  }

  // ------------------------------------------------------------------ resolution

  private Bound resolve(Class<?> c) {
    Bound b = resolved.get(c);
    if (b == null) {
      b = mostSpecific(c);
      Bound raced = resolved.putIfAbsent(c, b);
      if (raced != null) {
        b = raced;
      }
    }
    if (b.ambiguity != null) {
      throw new ConfigurationException(b.ambiguity);
    }
    return b;
  }

  private Bound mostSpecific(Class<?> c) {
    List<Class<?>> matching = new ArrayList<>();
    for (Class<?> k : bindings.keySet()) {
      if (k.isAssignableFrom(c)) {
        matching.add(k);
      }
    }
    List<Class<?>> best = new ArrayList<>(); // those no other matching binding is a subtype of
    for (Class<?> k : matching) {
      boolean overridden = false;
      for (Class<?> other : matching) {
        if (other != k && k.isAssignableFrom(other)) {
          overridden = true;
          break;
        }
      }
      if (!overridden) {
        best.add(k);
      }
    }
    if (best.isEmpty()) {
      return UNBOUND;
    }
    if (best.size() == 1) {
      return bindings.get(best.get(0));
    }
    List<String> keys = new ArrayList<>();
    for (Class<?> k : best) {
      keys.add(bindings.get(k).key);
    }
    return new Bound("", null, List.of(), "events of class " + c.getName() + " match the bindings " + keys
        + " equally (none is a subtype of the others): bind " + c.getName() + " itself in " + path
        + ".event-adapter-bindings to choose");
  }

  /** One binding: its key, the adapter that writes (null: none), those that read, in order. */
  private static final class Bound {
    final String key;
    final EventAdapter writer;
    final List<EventAdapter> readers;
    final String ambiguity; // not null: using it fails with this message

    Bound(String key, EventAdapter writer, List<EventAdapter> readers, String ambiguity) {
      this.key = key;
      this.writer = writer;
      this.readers = readers;
      this.ambiguity = ambiguity;
    }
  }

  // ------------------------------------------------------------------ reading the section

  private static ConfigObject object(Config section, String name, String path) {
    try {
      return section.getObject(name);
    } catch (ConfigException e) {
      throw new ConfigurationException(path + "." + name + " must be an object: " + e.getMessage(), e);
    }
  }

  /** Class names written unquoted ({@code com.example.V1 = a}) are nested objects: joined again. */
  private static void flatten(ConfigObject o, String prefix, Map<String, ConfigValue> into) {
    for (Map.Entry<String, ConfigValue> e : o.entrySet()) {
      String name = prefix + e.getKey();
      if (e.getValue() instanceof ConfigObject inner) {
        flatten(inner, name + ".", into);
      } else {
        into.put(name, e.getValue());
      }
    }
  }

  private static String string(ConfigValue v, String key) {
    if (v.valueType() != ConfigValueType.STRING) {
      throw new ConfigurationException(key + " must be a string, was " + v.valueType() + " " + v.render());
    }
    String s = ((String) v.unwrapped()).trim();
    if (s.isEmpty()) {
      throw new ConfigurationException(key + " is empty");
    }
    return s;
  }

  private static List<String> names(ConfigValue v, String key) {
    if (v.valueType() == ConfigValueType.STRING) {
      return List.of(string(v, key));
    }
    if (v.valueType() == ConfigValueType.LIST) {
      List<String> names = new ArrayList<>();
      for (ConfigValue item : (Iterable<ConfigValue>) ((com.typesafe.config.ConfigList) v)) {
        names.add(string(item, key));
      }
      if (names.isEmpty()) {
        throw new ConfigurationException(key + " names no adapter");
      }
      return names;
    }
    throw new ConfigurationException(key + " must name an adapter of event-adapters, or a list of them; was "
        + v.valueType() + " " + v.render());
  }

  private static EventAdapter make(ActorSystem system, String key, String className, ClassLoader loader) {
    Class<?> c;
    try {
      c = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(key + ": no class " + className + " on the class path", e);
    }
    if (!EventAdapter.class.isAssignableFrom(c)) {
      throw new ConfigurationException(key + ": " + className + " is no " + EventAdapter.class.getName());
    }
    Constructor<?> k;
    Object[] args;
    try {
      k = c.getConstructor(ActorSystem.class);
      args = new Object[] {system};
    } catch (NoSuchMethodException withoutSystem) {
      try {
        k = c.getConstructor();
        args = new Object[0];
      } catch (NoSuchMethodException e) {
        throw new ConfigurationException(key + ": " + className
            + " needs a public constructor taking the ActorSystem, or none", e);
      }
    }
    try {
      return (EventAdapter) k.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new ConfigurationException(key + ": the constructor of " + className + " failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConfigurationException(key + ": cannot make " + className + ": " + e, e);
    }
  }

  private static ClassLoader loader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : EventAdapters.class.getClassLoader();
  }
}
