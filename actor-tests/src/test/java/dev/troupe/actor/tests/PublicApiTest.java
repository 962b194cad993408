package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins the public API: the packages users see, and that no public signature in them exposes an
 * engine type, JCTools, SLF4J, or anything else that is not the JDK, Lightbend Config or Troupe's
 * own API (DESIGN.md: "nothing internal leaks into public signatures").
 */
class PublicApiTest {
  /** One class of each module whose public packages are checked. */
  private static final List<Class<?>> MODULE_ANCHORS =
      List.of(
          dev.troupe.actor.ActorSystem.class,
          dev.troupe.executors.AffinityPool.class,
          dev.troupe.dispatch.UnboundedMailbox.class,
          dev.troupe.testkit.TestKit.class,
          dev.troupe.serialization.Serialization.class);

  private static final Set<String> API_PACKAGES =
      Set.of(
          "dev.troupe.actor",
          "dev.troupe.actor.spi",
          "dev.troupe.pattern",
          "dev.troupe.routing",
          "dev.troupe.dispatch",
          "dev.troupe.executors",
          "dev.troupe.testkit",
          "dev.troupe.remote",
          "dev.troupe.serialization");

  /**
   * Public classes that are not API: the runtime's SPI, exported (qualified) only to Troupe's own
   * remoting and cluster modules (pinned by ModuleDescriptorsTest), like the internal packages.
   */
  private static final Set<String> TROUPE_ONLY_PACKAGES = Set.of("dev.troupe.runtime.spi");

  @Test
  void theApiPackagesAreExactlyTheDocumentedOnes() throws Exception {
    Set<String> found = new TreeSet<>();
    for (String name : allClassNames()) {
      String pkg = name.substring(0, name.lastIndexOf('.'));
      Class<?> c = Class.forName(name, false, getClass().getClassLoader());
      if (Modifier.isPublic(c.getModifiers()) && !pkg.contains(".internal") && !TROUPE_ONLY_PACKAGES.contains(pkg)) {
        found.add(pkg);
      }
    }
    assertEquals(new TreeSet<>(API_PACKAGES), found, "packages with public, non-internal classes");
  }

  @Test
  void noPublicSignatureExposesATypeFromOutsideTheApi() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (String name : allClassNames()) {
      Class<?> c = Class.forName(name, false, getClass().getClassLoader());
      if (!isApi(c)) {
        continue;
      }
      for (Method m : c.getDeclaredMethods()) {
        if (visible(m.getModifiers()) && !m.isSynthetic()) {
          check(leaks, c, m.getName() + "(...) returns", m.getGenericReturnType());
          for (Type p : m.getGenericParameterTypes()) {
            check(leaks, c, m.getName() + "(...) takes", p);
          }
        }
      }
      for (Constructor<?> k : c.getDeclaredConstructors()) {
        if (visible(k.getModifiers()) && !k.isSynthetic()) {
          for (Type p : k.getGenericParameterTypes()) {
            check(leaks, c, "constructor takes", p);
          }
        }
      }
      for (Field f : c.getDeclaredFields()) {
        if (visible(f.getModifiers()) && !f.isSynthetic()) {
          check(leaks, c, "field " + f.getName() + " is", f.getGenericType());
        }
      }
      if (c.getSuperclass() != null) {
        check(leaks, c, "extends", c.getGenericSuperclass());
      }
      for (Type i : c.getGenericInterfaces()) {
        check(leaks, c, "implements", i);
      }
    }
    assertTrue(leaks.isEmpty(), "public API signatures expose non-API types:\n" + String.join("\n", leaks));
  }

  private static boolean isApi(Class<?> c) {
    if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
      return false;
    }
    for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
      if (!Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return API_PACKAGES.contains(c.getPackageName());
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(List<String> leaks, Class<?> owner, String where, Type t) {
    if (t instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      if (c.isPrimitive()) {
        return;
      }
      String pkg = c.getPackageName();
      boolean ok =
          pkg.startsWith("java.")
              || pkg.startsWith("com.typesafe.config")
              || API_PACKAGES.contains(pkg)
              || pkg.startsWith("org.junit.jupiter.api.extension") // the testkit's JUnit 5 extension
              // the Jackson serializers' customizer hands over Jackson's own builder: that is its job
              || (owner == dev.troupe.serialization.JacksonMapperCustomizer.class && pkg.startsWith("com.fasterxml.jackson.databind"));
      if (!ok) {
        leaks.add(owner.getName() + ": " + where + " " + c.getName());
      }
    } else if (t instanceof ParameterizedType p) {
      check(leaks, owner, where, p.getRawType());
      for (Type a : p.getActualTypeArguments()) {
        check(leaks, owner, where, a);
      }
    } else if (t instanceof WildcardType w) {
      for (Type b : w.getUpperBounds()) {
        check(leaks, owner, where, b);
      }
      for (Type b : w.getLowerBounds()) {
        check(leaks, owner, where, b);
      }
    }
  }

  /** Every class of the anchors' jars or class directories. */
  private static List<String> allClassNames() throws IOException, URISyntaxException {
    List<String> out = new ArrayList<>();
    for (Class<?> anchor : MODULE_ANCHORS) {
      Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isDirectory(location)) {
        try (Stream<Path> files = Files.walk(location)) {
          files
              .filter(f -> f.toString().endsWith(".class"))
              .forEach(f -> out.add(className(location.relativize(f).toString().replace('\\', '/'))));
        }
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          jar.stream()
              .filter(e -> e.getName().endsWith(".class") && !e.getName().contains("META-INF"))
              .forEach(e -> out.add(className(e.getName())));
        }
      }
    }
    out.removeIf(n -> n.endsWith("package-info") || n.endsWith("module-info"));
    return out;
  }

  private static String className(String path) {
    return path.substring(0, path.length() - ".class".length()).replace('/', '.');
  }
}
