package dev.troupe.bench.remote;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import dev.troupe.bench.common.TroupeSystems;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ExtendedActorSystem;

/**
 * The echo side of the two-JVM {@code RemotePingPong} ({@code -p jvms=2}), in a child JVM started
 * with the benchmark jar's class path: Troupe's or Pekko's pong system with its pongers, or the raw
 * echo server. The parent reads the address line the child prints, and the child lives until its
 * standard input closes: when the parent stops it, or when the parent dies (then the pipe closes
 * with it), so no child outlives its benchmark fork.
 */
public final class PongNode {
  /** The line that carries the pong side's address (an actor system's, or {@code host:port}). */
  static final String ADDRESS = "PONG-NODE-ADDRESS ";

  private final Process process;
  private final String address;

  private PongNode(Process process, String address) {
    this.process = process;
    this.address = address;
  }

  /** @return the pong side's address: the actor system's, or {@code host:port} for raw */
  String address() {
    return address;
  }

  /** @return the child's process id */
  long pid() {
    return process.pid();
  }

  /**
   * Starts the child and waits (bounded) for its address.
   *
   * @param impl troupe, pekko, raw or raw-batched
   * @param pairs pongers to create
   */
  static PongNode start(String impl, int pairs) {
    return start(impl, pairs, "auto", "nio");
  }

  /**
   * Starts the child and waits (bounded) for its address.
   *
   * @param impl troupe, pekko, raw or raw-batched
   * @param pairs pongers to create
   * @param inboundLanes Troupe's {@code troupe.remote.advanced.inbound-lanes} in the child
   * @param transport Troupe's {@code troupe.remote.advanced.transport} in the child
   */
  static PongNode start(String impl, int pairs, String inboundLanes, String transport) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty("java.class.path");
    String modulePath = System.getProperty("jdk.module.path"); // a test run on the module path
    if (modulePath != null && !modulePath.isEmpty()) {
      classPath = classPath + File.pathSeparator + modulePath;
    }
    List<String> command =
        List.of(
            java, "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-cp", classPath,
            PongNode.class.getName(), impl, Integer.toString(pairs), inboundLanes, transport);
    Process p;
    try {
      p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the pong JVM: " + command, e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "pong-node-reaper"));
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String[] found = new String[1];
    Thread reader =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = out.readLine()) != null) {
                  if (found[0] == null && line.startsWith(ADDRESS)) {
                    synchronized (found) {
                      found[0] = line.substring(ADDRESS.length()).trim();
                      found.notifyAll();
                    }
                  } else {
                    System.out.println("[pong node] " + line);
                  }
                }
              } catch (IOException closed) {
                // the child is gone
              }
            },
            "pong-node-stdout");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    synchronized (found) {
      while (found[0] == null && p.isAlive() && System.nanoTime() - deadline < 0) {
        try {
          found.wait(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    if (found[0] == null) {
      p.destroyForcibly();
      throw new IllegalStateException("the pong JVM (" + impl + ") printed no address within 60 s (alive: " + p.isAlive() + ")");
    }
    return new PongNode(p, found[0]);
  }

  /** Closes the child's input (it stops its system and exits), then kills it if it has not gone in 10 s. */
  void stop() {
    try {
      process.getOutputStream().close();
    } catch (IOException ignored) {
      // it goes anyway
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The child: {@code PongNode <impl> <pairs> [<inbound-lanes> [<transport>]]}. Prints {@link #ADDRESS} and the address, then
   * serves until standard input closes.
   */
  public static void main(String[] args) throws Exception {
    String impl = args[0];
    int pairs = Integer.parseInt(args[1]);
    String inboundLanes = args.length > 2 ? args[2] : "auto";
    String transport = args.length > 3 ? args[3] : "nio";
    Runnable stop;
    String address;
    switch (impl) {
      case "troupe" -> {
        ActorSystem s =
            TroupeSystems.start(
                Names.unique("remote-pong"), TroupeRemotePingPong.config(inboundLanes, transport));
        for (int i = 0; i < pairs; i++) {
          s.actorOf(Props.create(TroupeRemotePingPong.Ponger.class, TroupeRemotePingPong.Ponger::new).withDispatcher(Dispatchers.ID), "ponger-" + i);
        }
        address = s.address().toString();
        stop = () -> TroupeSystems.stop(s);
      }
      case "pekko", "pekko-tuned" -> {
        org.apache.pekko.actor.ActorSystem s =
            PekkoSystems.start(
                Names.unique("remote-pong"), PekkoRemotePingPong.REMOTE + Dispatchers.section(Impl.of(impl), Dispatchers.DEFAULT_THROUGHPUT));
        for (int i = 0; i < pairs; i++) {
          s.actorOf(
              org.apache.pekko.actor.Props.create(PekkoRemotePingPong.Ponger.class, PekkoRemotePingPong.Ponger::new)
                  .withDispatcher(Dispatchers.ID),
              "ponger-" + i);
        }
        address = ((ExtendedActorSystem) s).provider().getDefaultAddress().toString();
        stop = () -> PekkoSystems.stop(s);
      }
      case "raw", "raw-batched" -> {
        RawSocketPingPong.EchoServer server = RawSocketPingPong.echoServer(impl.equals("raw-batched"));
        address = server.address().getHostString() + ":" + server.address().getPort();
        stop = server::close;
      }
      default -> throw new IllegalArgumentException("unknown impl " + impl);
    }
    System.out.println(ADDRESS + address);
    System.out.flush();
    InputStream in = System.in;
    while (in.read() >= 0) {
      // until the parent closes the pipe, or dies
    }
    try {
      stop.run();
    } finally {
      System.exit(0);
    }
  }
}
