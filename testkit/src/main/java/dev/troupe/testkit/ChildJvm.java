package dev.troupe.testkit;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

  /**
   * Reads the child's standard output on a daemon thread until a line starts with {@code prefix},
   * and goes on draining it afterwards (so that the child never blocks on a full pipe). Call it
   * once per child: it takes over the output stream.
   *
   * @param child a started child (with {@code redirectErrorStream(true)} to see its errors too)
   * @param prefix what the awaited line starts with
   * @param max how long to wait
   * @return the rest of that line, trimmed
   * @throws AssertionError naming the prefix if the line does not come within {@code max}, or
   *     with everything the child printed if it ends first
   */
  public static String awaitLine(Process child, String prefix, Duration max) {
    CompletableFuture<String> found = new CompletableFuture<>();
    StringBuffer seen = new StringBuffer(); // what the child printed before the line, for a timeout's message
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  if (!found.isDone() && line.startsWith(prefix)) {
                    found.complete(line.substring(prefix.length()).trim());
                  } else if (!found.isDone()) {
                    seen.append(line).append('\n');
                  }
                }
                found.completeExceptionally(
                    new IOException("the child ended before printing '" + prefix + "':\n" + seen));
              } catch (IOException e) {
                found.completeExceptionally(e);
              }
            },
            "child-jvm-output-" + child.pid());
    reader.setDaemon(true);
    reader.start();
    try {
      return found.get(max.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("the child printed no line starting with '" + prefix + "' within " + max
          + " (it " + (child.isAlive() ? "still runs" : "ended") + "); it printed:\n" + seen);
    } catch (ExecutionException e) {
      throw new AssertionError(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for the child's '" + prefix + "'", e);
    }
  }
}
