package dev.troupe.samples.remote;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Flags;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A node with one actor, {@code /user/echo}, that sends every {@link EchoMessage} back to its
 * sender; clients may also deploy echo actors onto it ({@code remote-echo-client --deploy}, allowed
 * by the {@code remote-echo-server} section of the samples' configuration). It prints its address
 * and runs until Ctrl-C or SIGTERM, then terminates its system.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar remote-echo-server --port 2552
 * </pre>
 */
public final class RemoteEchoServer implements Sample {
  private static final Set<String> FLAGS = Set.of("port", "host", "help");

  /** Replies to each echo message with the message itself. */
  static final class Echo extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(EchoMessage.class, m -> getSender().tell(m, getSelf()))
          .build();
    }
  }

  @Override
  public String name() {
    return "remote-echo-server";
  }

  @Override
  public String description() {
    return "a remote node with /user/echo; runs until Ctrl-C (flags: --port --host)";
  }

  @Override
  public int run(String[] args, PrintStream out) throws Exception {
    Flags f;
    int port;
    String host;
    try {
      f = new Flags(args, FLAGS);
      port = f.intValue("port", 2552, 0);
      host = f.text("host", "127.0.0.1");
    } catch (IllegalArgumentException e) {
      out.println(e.getMessage());
      return 2;
    }
    if (f.help()) {
      out.println("remote-echo-server [--port 2552] [--host 127.0.0.1]");
      out.println("  --port P   TCP port to listen on, 0 = any free port (default 2552)");
      out.println("  --host H   address other nodes reach this one at (default 127.0.0.1)");
      return 0;
    }
    ActorSystem system = start(host, port, out);
    Thread hook =
        new Thread(
            () -> {
              stop(system);
              out.println("echo server stopped");
            },
            "remote-echo-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println("Ctrl-C to stop");
    system.getWhenTerminated().toCompletableFuture().join();
    return 0;
  }

  /**
   * Starts the echo node and prints its address and the echo's path.
   *
   * @param host the canonical host
   * @param port the port; 0 = any free port
   * @param out where the address goes
   * @return the running system; {@link #stop} it
   */
  public static ActorSystem start(String host, int port, PrintStream out) {
    ActorSystem system = ActorSystem.create("echo", RemoteEcho.server(host, port));
    system.actorOf(Props.create(Echo.class), RemoteEcho.ECHO_NAME);
    String echo = system.address() + "/user/" + RemoteEcho.ECHO_NAME;
    out.println("echo server listening at " + system.address());
    out.println("echo actor: " + echo);
    out.println("try: java -jar samples/target/troupe-samples.jar remote-echo-client --target " + echo);
    return system;
  }

  /**
   * Terminates the echo node, waiting at most 10 s.
   *
   * @param system what {@link #start} returned
   */
  public static void stop(ActorSystem system) {
    try {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the echo server did not terminate in 10 s", e);
    }
  }
}
