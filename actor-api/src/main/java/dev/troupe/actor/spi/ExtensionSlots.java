package dev.troupe.actor.spi;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.ExtensionId;
import dev.troupe.actor.ExtensionIdProvider;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * A system's extensions: one value per id, made at most once however many threads ask at the same
 * time (the others wait for it), and looked up without a lock once made. Classic and typed
 * systems each hold one.
 *
 * <p>A creation that fails leaves nothing behind: its caller gets the failure and the next call
 * tries again. An id asked for by its own creation, on the creating thread, fails at once with
 * {@link IllegalStateException} instead of waiting for itself. (Two creations on two threads that
 * each wait for the other's id do wait for each other, as they would on any lock: an extension
 * should get the extensions it needs when first used, not in its constructor, when they may need
 * it back.)
 *
 * <p>Ids are compared by identity (a map of the id objects themselves: {@code equals} of an id is
 * expected to be identity, as {@code AbstractExtensionId} makes it).
 */
public final class ExtensionSlots {
  private final ConcurrentHashMap<Object, Object> slots = new ConcurrentHashMap<>();

  /** An empty set of extensions. */
  public ExtensionSlots() {}

  /** A creation under way: who makes it, and the latch its waiters wait on. */
  private static final class Creating {
    final Thread creator = Thread.currentThread();
    final CountDownLatch done = new CountDownLatch(1);
  }

  /**
   * @param id the extension's id
   * @param create makes it; called at most once for a successful creation
   * @param <T> the extension
   * @return the extension of {@code id}, made now or earlier
   * @throws IllegalStateException if {@code create} (on this thread) asks for {@code id} itself, or
   *     if the thread is interrupted while another thread creates it
   * @throws NullPointerException if {@code create} returns null
   */
  @SuppressWarnings("unchecked")
  public <T> T register(Object id, Supplier<T> create) {
    Objects.requireNonNull(id, "id");
    while (true) {
      Object v = slots.get(id);
      if (v == null) {
        Creating mine = new Creating();
        v = slots.putIfAbsent(id, mine);
        if (v == null) {
          return create(id, create, mine);
        }
      }
      if (!(v instanceof Creating c)) {
        return (T) v;
      }
      if (c.creator == Thread.currentThread()) {
        throw new IllegalStateException(
            "extension " + id + " was asked for while it was being created, by its own creation: an"
                + " extension must not get itself in its createExtension");
      }
      try {
        c.done.await(); // then look again: made, or failed and free to try
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for extension " + id + " to be created", e);
      }
    }
  }

  private <T> T create(Object id, Supplier<T> create, Creating mine) {
    try {
      T made = Objects.requireNonNull(create.get(), () -> "the createExtension of " + id + " returned null");
      slots.put(id, made);
      return made;
    } catch (RuntimeException | Error e) {
      slots.remove(id, mine);
      throw e;
    } finally {
      mine.done.countDown();
    }
  }

  /**
   * The lookup of an extension already made: a map read, nothing allocated (for a {@code get} on
   * every message).
   *
   * @param id an extension's id
   * @param <T> the extension
   * @return the extension of {@code id}, or null if it is not made (yet)
   */
  @SuppressWarnings("unchecked")
  public <T> T made(Object id) {
    Object v = slots.get(id);
    return v instanceof Creating ? null : (T) v;
  }

  /**
   * @param id an extension's id
   * @param <T> the extension
   * @return the extension of {@code id}
   * @throws IllegalArgumentException if it was not made (yet)
   */
  @SuppressWarnings("unchecked")
  public <T> T get(Object id) {
    Object v = slots.get(Objects.requireNonNull(id, "id"));
    if (v == null || v instanceof Creating) {
      throw new IllegalArgumentException("extension " + id + " is not registered (get it with registerExtension, or its get)");
    }
    return (T) v;
  }

  /**
   * @param id an extension's id
   * @return whether its extension was made
   */
  public boolean has(Object id) {
    Object v = slots.get(Objects.requireNonNull(id, "id"));
    return v != null && !(v instanceof Creating);
  }

  /**
   * Finds the id a configuration entry names (see {@code ExtensionIdProvider}): an instance of
   * {@code providerType} made with the class's no-argument constructor names it with {@code
   * lookup}; else, for an id class, its one static final field of its own type holds it, or the
   * class is made with its no-argument constructor; else the class's one static final field whose
   * type is an id holds it (an extension class that keeps its id in a constant, such as {@code
   * DistributedPubSub.ID}).
   *
   * @param key the configuration key, for errors
   * @param className the entry
   * @param loader where to look the class up
   * @param idType what an id is
   * @param providerType what names an id, or null
   * @param lookup reads the id of a provider
   * @return the id
   * @throws ConfigurationException naming the entry and what is wrong with it
   */
  public static Object findId(
      String key,
      String className,
      ClassLoader loader,
      Class<?> idType,
      Class<?> providerType,
      java.util.function.Function<Object, Object> lookup) {
    String what = key + " entry '" + className + "'";
    Class<?> c;
    try {
      c = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(what + ": no such class (" + e + ")", e);
    }
    try {
      if (providerType != null && providerType.isAssignableFrom(c)) {
        Object id = lookup.apply(construct(c));
        if (!idType.isInstance(id)) {
          throw new ConfigurationException(what + ": its lookup() returned " + id + ", not a " + idType.getName());
        }
        return id;
      }
      // an id class: its one static final field of its own type; another class (such as an
      // extension that keeps its id in a constant): its one static final field that is an id
      boolean isId = idType.isAssignableFrom(c);
      Class<?> fieldType = isId ? c : idType;
      Field single = null;
      for (Field f : c.getDeclaredFields()) {
        int m = f.getModifiers();
        if (Modifier.isStatic(m) && Modifier.isFinal(m) && fieldType.isAssignableFrom(f.getType())) {
          if (single != null) {
            throw new ConfigurationException(
                what + ": more than one static final field that could hold its id (" + single.getName() + ", "
                    + f.getName() + "); list an ExtensionIdProvider whose lookup() names the one to use");
          }
          single = f;
        }
      }
      if (single != null) {
        if (!single.trySetAccessible()) {
          throw new ConfigurationException(what + ": cannot read its field " + single.getName()
              + " (open its package to dev.troupe.actor, or make the field public)");
        }
        Object id = single.get(null);
        if (id == null) {
          throw new ConfigurationException(what + ": its field " + single.getName() + " is null");
        }
        return id;
      }
      if (!isId) {
        throw new ConfigurationException(
            what + ": " + c.getName() + " is neither a " + idType.getName()
                + (providerType == null ? "" : " nor a " + providerType.getName())
                + ", nor has it one static final field that is one");
      }
      return construct(c);
    } catch (ReflectiveOperationException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      throw new ConfigurationException(what + ": " + cause, cause);
    }
  }

  /**
   * Registers the extensions a classic system's configuration lists: {@code
   * troupe.library-extensions} (what libraries add in their {@code reference.conf}), then {@code
   * troupe.extensions} (the application's), each in its order.
   *
   * @param system the system, just started
   * @param config its configuration
   * @throws ConfigurationException naming the entry that could not be loaded or whose extension
   *     failed to start
   */
  public static void startConfigured(ActorSystem system, Config config) {
    for (String key : List.of("troupe.library-extensions", "troupe.extensions")) {
      for (String name : entries(config, key)) {
        ExtensionId<?> id =
            (ExtensionId<?>) findId(key, name, loader(), ExtensionId.class, ExtensionIdProvider.class,
                p -> ((ExtensionIdProvider) p).lookup());
        start(key, name, () -> system.registerExtension(id));
      }
    }
  }

  /**
   * Runs the start of one listed extension, its failure named after its entry.
   *
   * @param key the configuration key
   * @param name the entry
   * @param start registers it
   */
  public static void start(String key, String name, Runnable start) {
    try {
      start.run();
    } catch (ConfigurationException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ConfigurationException(key + " entry '" + name + "': its extension failed to start: " + e, e);
    }
  }

  /**
   * @param config a configuration
   * @param key a key that holds class names
   * @return the names, none if the key is absent
   * @throws ConfigurationException if the value is not a list of strings
   */
  public static List<String> entries(Config config, String key) {
    if (!config.hasPath(key)) {
      return List.of();
    }
    try {
      return config.getStringList(key);
    } catch (ConfigException e) {
      throw new ConfigurationException(key + ": expected a list of class names: " + e.getMessage(), e);
    }
  }

  /** @return where listed classes are looked up: the thread's context loader, else this module's */
  public static ClassLoader loader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : ExtensionSlots.class.getClassLoader();
  }

  private static Object construct(Class<?> c) throws ReflectiveOperationException {
    Constructor<?> k;
    try {
      k = c.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      throw new ConfigurationException("extension class " + c.getName() + " has no no-argument constructor", e);
    }
    if (!k.trySetAccessible()) {
      throw new ConfigurationException("cannot call the constructor of extension class " + c.getName()
          + " (open its package to dev.troupe.actor, or make the constructor public)");
    }
    return k.newInstance();
  }
}
