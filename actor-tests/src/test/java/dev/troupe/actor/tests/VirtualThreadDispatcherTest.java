package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ChildJvm;
import dev.troupe.testkit.TestActors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code executor = virtual-thread-executor}: blocking actors on virtual threads (JDK 21+), and the
 * clear failure on an older JDK. The build targets Java 17, so on a 17 JVM the scenario runs in a
 * child JVM of the newest JDK 21+ found under {@code /usr/lib/jvm}.
 */
class VirtualThreadDispatcherTest {
  private static final int FEATURE = Runtime.version().feature();
  private static final long CHILD_BOUND_SECONDS = 240;

  @Test
  void aThousandActorsBlockOnVirtualThreadsWhileTheDefaultDispatcherKeepsAnswering(@TempDir Path dir)
      throws Exception {
    if (FEATURE >= 21) {
      String result = VirtualThreadScenario.run();
      assertTrue(result.startsWith(VirtualThreadScenario.OK), result);
      return;
    }
    Optional<Path> java = newestJavaAtLeast21(Paths.get("/usr/lib/jvm"));
    assumeTrue(java.isPresent(),
        "this JVM is Java " + FEATURE + " and no JDK 21+ is installed under /usr/lib/jvm: the virtual-thread "
            + "scenario needs one (its JDK 17 behaviour is pinned by the other test)");
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    Process child = ChildJvm.builder(java.get(), List.of("-Xmx256m"), VirtualThreadScenario.class)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    boolean exited = child.waitFor(CHILD_BOUND_SECONDS, TimeUnit.SECONDS);
    if (!exited) {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    String where = " (child " + java.get() + ")\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    assertTrue(exited, "the scenario did not finish within " + CHILD_BOUND_SECONDS + " s" + where);
    assertTrue(stdout.lines().anyMatch(l -> l.startsWith(VirtualThreadScenario.OK)), "no passing result line" + where);
    assertEquals(0, child.exitValue(), "exit code" + where);
    List<String> warnings = Stream.concat(stdout.lines(), stderr.lines())
        .filter(l -> l.contains("WARNING") || l.contains(" WARN "))
        .collect(Collectors.toList());
    assertEquals(List.of(), warnings, "the runtime printed warnings on Java 21+" + where);
  }

  @Test
  void onJdk17AnActorOfWithAVirtualThreadDispatcherFailsSayingWhyAndWhichDispatcher() throws Exception {
    assumeTrue(FEATURE < 21, "this JVM is Java " + FEATURE + ": it has virtual threads");
    ActorSystem sys = ActorSystem.create(RuntimeFixtures.uniqueName("vt17"), ConfigFactory.parseString(
        "my-io-dispatcher { executor = virtual-thread-executor }\n"
            + "troupe.actor.other-io-dispatcher { executor = virtual-thread-executor }").withFallback(ConfigFactory.load()));
    try {
      // defining it breaks nothing while it is not used
      ActorRef echo = sys.actorOf(TestActors.echoActorProps());
      assertEquals("hi", Patterns.ask(echo, "hi", RuntimeFixtures.TIMEOUT).toCompletableFuture()
          .get(RuntimeFixtures.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      for (String id : List.of("my-io-dispatcher", "troupe.actor.other-io-dispatcher")) {
        ConfigurationException e = assertThrows(ConfigurationException.class,
            () -> sys.actorOf(TestActors.echoActorProps().withDispatcher(id)));
        assertTrue(e.getMessage().contains("virtual threads need JDK 21+"), e.getMessage());
        assertTrue(e.getMessage().contains("dispatcher " + id + " "), e.getMessage());
      }
    } finally {
      sys.terminate().toCompletableFuture().get(RuntimeFixtures.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  /** The {@code bin/java} of the newest JDK of feature release 21 or later under {@code root}. */
  static Optional<Path> newestJavaAtLeast21(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    List<Path> homes;
    try (Stream<Path> s = Files.list(root)) {
      homes = s.collect(Collectors.toCollection(ArrayList::new));
    }
    Path best = null;
    int bestFeature = 20;
    for (Path home : homes) {
      Path java = home.resolve("bin").resolve("java");
      Path release = home.resolve("release");
      if (!Files.isExecutable(java) || !Files.isRegularFile(release)) {
        continue;
      }
      int feature = featureOf(release);
      if (feature > bestFeature) {
        best = java;
        bestFeature = feature;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The feature release in a JDK's {@code release} file ({@code JAVA_VERSION="25.0.1"}), or 0. */
  private static int featureOf(Path release) {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(release, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (IOException | IllegalArgumentException e) {
      return 0;
    }
    String v = p.getProperty("JAVA_VERSION", "").replace("\"", "").trim();
    if (v.startsWith("1.")) {
      v = v.substring(2);
    }
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
  }
}
