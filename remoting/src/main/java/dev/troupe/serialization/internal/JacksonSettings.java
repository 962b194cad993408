package dev.troupe.serialization.internal;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.serialization.JacksonMapperCustomizer;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code troupe.serialization.jackson}: the modules both Jackson serializers register and the
 * customizer that configures their mappers last. Read once per serializer; every problem is a
 * {@link ConfigurationException} naming the key.
 *
 * <p>Always registered, before the configured modules: {@code java.time} (JSR-310), {@code
 * Optional} and the other JDK 8 types, and constructor parameter names (classes compiled with
 * {@code -parameters} need no annotations on their constructor).
 *
 * @param modules the configured modules, in order
 * @param customizer the customizer, or null
 */
record JacksonSettings(List<Module> modules, JacksonMapperCustomizer customizer) {
  static final String ROOT = "troupe.serialization.jackson";

  static JacksonSettings from(Config config, ClassLoader loader) {
    if (!config.hasPath(ROOT)) {
      return new JacksonSettings(List.of(), null);
    }
    List<String> names = read("modules", () -> config.getStringList(ROOT + ".modules"));
    List<Module> modules = new ArrayList<>(names.size());
    for (String name : names) {
      modules.add(create("modules", name, Module.class, loader));
    }
    String customizer = read("mapper-customizer", () -> config.getString(ROOT + ".mapper-customizer")).trim();
    return new JacksonSettings(
        List.copyOf(modules),
        customizer.isEmpty() ? null : create("mapper-customizer", customizer, JacksonMapperCustomizer.class, loader));
  }

  /** Registers the built-in modules, the configured ones, then runs the customizer. */
  void apply(MapperBuilder<?, ?> builder, String serializerName) {
    builder.addModule(new JavaTimeModule()).addModule(new Jdk8Module()).addModule(new ParameterNamesModule());
    for (Module m : modules) {
      builder.addModule(m);
    }
    if (customizer != null) {
      customizer.customize(builder, serializerName);
    }
  }

  private static <T> T create(String key, String className, Class<T> type, ClassLoader loader) {
    String where = "invalid configuration value at '" + ROOT + "." + key + "': ";
    Class<?> c;
    try {
      c = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigurationException(where + "class " + className + " not found (is its jar on the class path?)", e);
    }
    if (!type.isAssignableFrom(c)) {
      throw new ConfigurationException(where + className + " is not a " + type.getName());
    }
    try {
      return type.cast(c.getConstructor().newInstance());
    } catch (InvocationTargetException e) {
      throw new ConfigurationException(where + className + ": its constructor failed: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ConfigurationException(where + className + " needs a public no-argument constructor (" + e + ")", e);
    }
  }

  private static <T> T read(String key, java.util.function.Supplier<T> reader) {
    try {
      return reader.get();
    } catch (ConfigException e) {
      throw new ConfigurationException("invalid configuration value at '" + ROOT + "." + key + "': " + e.getMessage(), e);
    }
  }
}
