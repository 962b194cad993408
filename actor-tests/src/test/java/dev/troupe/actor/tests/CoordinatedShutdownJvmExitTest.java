package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.CoordinatedShutdown;
import dev.troupe.actor.Done;
import dev.troupe.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JVM's shutdown runs the coordinated shutdown: a child JVM with a system and a task is sent
 * SIGTERM (what {@link Process#destroy()} sends) and must print the task's line and exit within a bound; with
 * {@code run-by-jvm-shutdown-hook = off} the task does not run. A termination callback that calls
 * {@code System.exit} while the system terminates does not make the JVM wait for the hook's bound.
 */
class CoordinatedShutdownJvmExitTest {
  /** How long the child may take to start its system (a JVM start on a loaded machine). */
  private static final long START_S = 60;
  /** How long the child may take to exit once told to: far below the phases' total (35 s). */
  private static final long EXIT_S = 15;

  private Process child;

  @AfterEach
  void killChild() {
    if (child != null) {
      child.destroyForcibly();
    }
  }

  /** The child JVM: a system with one task, then it waits for the end. */
  public static final class Child {
    static final String READY = "child: ready";
    static final String TASK = "child: the service-stop task ran";
    static final String TERMINATED = "child: system terminated";

    private Child() {}

    /**
     * @param args {@code hook} (run-by-jvm-shutdown-hook on), {@code slow-callback} (the same, with a
     *     termination callback that takes 300 ms), {@code no-hook}, or {@code
     *     exit-in-termination} (terminates the system itself and calls System.exit when it has)
     */
    public static void main(String[] args) {
      String mode = args[0];
      ActorSystem system =
          ActorSystem.create(
              "child",
              ConfigFactory.parseString(
                  "troupe.coordinated-shutdown.run-by-jvm-shutdown-hook = " + (mode.equals("no-hook") ? "off" : "on")
                      // far above EXIT_S: a hook that waited for this phase to time out fails the test
                      + "\ntroupe.coordinated-shutdown.phases.actor-system-terminate.timeout = 60s"));
      CoordinatedShutdown.get(system)
          .addTask(CoordinatedShutdown.PHASE_SERVICE_STOP, "say-so", () -> {
            System.out.println(TASK);
            System.out.flush();
            return CompletableFuture.completedFuture(Done.getInstance());
          });
      system.registerOnTermination(() -> {
        if (mode.equals("slow-callback")) {
          try {
            Thread.sleep(300); // a callback with work to do: the JVM must not exit under it
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        System.out.println(TERMINATED);
        System.out.flush();
        if (mode.equals("exit-in-termination")) {
          System.exit(3);
        }
      });
      System.out.println(READY);
      System.out.flush();
      if (mode.equals("exit-in-termination")) {
        system.terminate();
      }
      system.getWhenTerminated().toCompletableFuture().join();
    }
  }

  /** A started child: its output so far, the thread reading it, and whether it said it is ready. */
  private record Run(List<String> lines, Thread reader, CountDownLatch ready) {}

  /** Starts the child and collects its output lines. */
  private Run start(String mode) throws IOException, InterruptedException {
    child = ChildJvm.builder(List.of("-Xmx64m"), Child.class, mode).redirectErrorStream(true).start();
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch ready = new CountDownLatch(1);
    Process p = child;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  lines.add(line);
                  if (line.equals(Child.READY)) {
                    ready.countDown();
                  }
                }
              } catch (IOException e) {
                lines.add("reader: " + e);
              }
            },
            "shutdown-test-child-output");
    reader.setDaemon(true);
    reader.start();
    Run run = new Run(lines, reader, ready);
    assertTrue(ready.await(START_S, TimeUnit.SECONDS), "the child started its system; its output: " + lines);
    return run;
  }

  /**
   * Sends SIGTERM, as {@link Process#destroy()} does; through the process handle, because {@code
   * Process.destroy()} also closes our end of the child's output, and the lines the child prints
   * while it shuts down are what these tests read.
   */
  private void sigterm() {
    assertTrue(child.toHandle().destroy(), "SIGTERM sent");
  }

  /** Waits for the child's exit and the end of its output; returns all its lines. */
  private List<String> awaitExit(Run run) throws InterruptedException {
    assertTrue(child.waitFor(EXIT_S, TimeUnit.SECONDS), "the child exited within " + EXIT_S + " s; its output: " + run.lines());
    run.reader().join(TimeUnit.SECONDS.toMillis(EXIT_S));
    assertFalse(run.reader().isAlive(), "the child's output ended");
    synchronized (run.lines()) {
      return List.copyOf(run.lines());
    }
  }

  @Test
  void sigtermRunsTheTasksAndTerminatesTheSystemBeforeTheJvmExits() throws Exception {
    Run run = start("hook");
    sigterm();
    List<String> out = awaitExit(run);
    assertTrue(out.contains(Child.TASK), "the task ran: " + out);
    assertTrue(out.contains(Child.TERMINATED), "the last phase terminated the system: " + out);
    assertTrue(out.indexOf(Child.TASK) < out.indexOf(Child.TERMINATED), out.toString());
  }

  @Test
  void withTheHookOffSigtermRunsNoTask() throws Exception {
    Run run = start("no-hook");
    sigterm();
    List<String> out = awaitExit(run);
    assertFalse(out.contains(Child.TASK), "no task without the hook: " + out);
    assertFalse(out.contains(Child.TERMINATED), "nor a termination: " + out);
  }

  @Test
  void systemExitFromATerminationCallbackDoesNotWaitForTheHooksBound() throws Exception {
    Run run = start("exit-in-termination");
    List<String> out = awaitExit(run);
    assertTrue(out.contains(Child.TASK) && out.contains(Child.TERMINATED), out.toString());
    assertEquals(3, child.exitValue(), "the exit status given to System.exit");
  }

  @Test
  void aTerminationCallbackWithWorkToDoFinishesBeforeTheJvmExits() throws Exception {
    Run run = start("slow-callback");
    sigterm();
    List<String> out = awaitExit(run);
    assertTrue(out.contains(Child.TERMINATED), "the callback ran to its end before the JVM exited: " + out);
  }
}
