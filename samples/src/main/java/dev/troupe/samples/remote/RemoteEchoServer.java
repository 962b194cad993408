package dev.troupe.samples.remote;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
@Command(name = "remote-echo-server", description = "a remote node with /user/echo; runs until Ctrl-C (flags: --port --host)")
public final class RemoteEchoServer extends Sample {
  @Option(names = "--port", paramLabel = "P",
      description = "TCP port to listen on, 0 = any free port (default ${DEFAULT-VALUE})")
  private int port = 2552;

  @Option(names = "--host", paramLabel = "H",
      description = "address other nodes reach this one at (default ${DEFAULT-VALUE})")
  private String host = "127.0.0.1";

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
  protected int run(PrintStream out) throws Exception {
    within("--port", port, 0, 65_535);
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
