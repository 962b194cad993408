package dev.troupe.testkit;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a second JVM with the test's own class path, for tests that need another process: a
 * node that is killed rather than shut down, a JVM that receives SIGTERM, a JDK other than the one
 * running the test.
 *
 * <pre>{@code
 * Process node = ChildJvm.builder(List.of("-Xmx128m"), VanishingNode.class, "--port", "0")
 *     .redirectErrorStream(true)
 *     .start();
 * }</pre>
 *
 * The caller owns the process: read its output, bound every wait, and destroy it in an
 * {@code @AfterEach} so that a failing test leaves nothing running.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * The class path of this JVM, with its module path appended (a child started with it sees the
   * same classes whether the test runs on the class path or the module path).
   *
   * @return the path, in the platform's separator
   */
  public static String classPath() {
    String classPath = System.getProperty("java.class.path");
    String modulePath = System.getProperty("jdk.module.path");
    if (modulePath != null && !modulePath.isEmpty()) {
      classPath = classPath + File.pathSeparator + modulePath;
    }
    return classPath;
  }

  /** @return the {@code java} launcher of the JVM running this code */
  public static Path javaOfThisJvm() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * A process builder for {@code mainClass} on this JVM's launcher and class path.
   *
   * @param jvmOptions options before the class path, e.g. {@code -Xmx128m}
   * @param mainClass the class whose {@code main} the child runs
   * @param args the child's arguments
   * @return the builder, for the caller to redirect and start
   */
  public static ProcessBuilder builder(List<String> jvmOptions, Class<?> mainClass, String... args) {
    return builder(javaOfThisJvm(), jvmOptions, mainClass, args);
  }

  /**
   * A process builder for {@code mainClass} on the given launcher and this JVM's class path.
   *
   * @param java the {@code java} launcher to use, e.g. of a newer JDK
   * @param jvmOptions options before the class path, e.g. {@code -Xmx128m}
   * @param mainClass the class whose {@code main} the child runs
   * @param args the child's arguments
   * @return the builder, for the caller to redirect and start
   */
  public static ProcessBuilder builder(
      Path java, List<String> jvmOptions, Class<?> mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath());
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }
}
