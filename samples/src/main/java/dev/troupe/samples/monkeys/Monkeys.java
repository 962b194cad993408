package dev.troupe.samples.monkeys;

import dev.troupe.samples.Durations;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Infinite monkeys behind an HTTP server ({@link MonkeyServer}): {@code POST /write number=N} hires
 * N monkeys who type random words, and Shakespeare keeps the real ones. The sample starts the
 * server, sends it a few demo requests with the JDK's HTTP client, prints the answers, then serves
 * on for {@code --serve-for} (default: not at all) and stops. With {@code --metrics-port}, the
 * actor system's meters are served for Prometheus at {@code GET /metrics} ({@link
 * MetricsEndpoint}) and the demo ends with a scrape of them.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar monkeys
 * java -jar samples/target/troupe-samples.jar monkeys --port 8080 --metrics-port 9090 --serve-for forever
 * curl -d number=100 http://127.0.0.1:8080/write
 * curl http://127.0.0.1:9090/metrics
 * </pre>
 */
@Command(
    name = "monkeys",
    description = "an HTTP server where actor monkeys type and Shakespeare keeps the real words",
    footer = {
      "",
      "It starts the server, sends it GET /ping, POST /write number=<monkeys> and a bad POST /write",
      "number=0 with the JDK's HTTP client, prints the answers, serves on for the --serve-for time,",
      "then stops (exit code 0). The server answers:",
      "  GET  /ping              pong",
      "  POST /write number=N    {\"shakespearian\":[...],\"unworthy\":n,\"typed\":t,\"monkeys\":N,\"millis\":m}",
      "                          (N = 1.." + MonkeyServer.MAX_MONKEYS + ", a form field or a query parameter)",
      "  bad input               400, 404, 405, 413 or 415 with a one-line reason",
      "  a slow /write           503 after the --timeout time; its monkeys are stopped",
      "With --metrics-port, a second server answers GET /metrics with the actor system's meters in",
      "Prometheus' text format, and the demo ends with a scrape of it.",
      "Example: monkeys --port 8080 --serve-for forever",
      "         curl -d number=100 http://127.0.0.1:8080/write"
    })
public final class Monkeys extends Sample {
  @Option(names = "--host", paramLabel = "HOST", description = "the address to listen on (default ${DEFAULT-VALUE})")
  private String host = "127.0.0.1";

  @Option(names = "--port", paramLabel = "N", description = "the port to listen on, 0 = any free one (default ${DEFAULT-VALUE})")
  private int port;

  @Option(names = "--timeout", paramLabel = "DURATION", converter = Durations.Converter.class, defaultValue = "5s",
      description = "how long a /write may take, then 503 (default ${DEFAULT-VALUE})")
  private Duration timeout;

  @Option(names = "--monkeys", paramLabel = "N",
      description = "monkeys in the demo's /write (1.." + MonkeyServer.MAX_MONKEYS + ") (default ${DEFAULT-VALUE})")
  private int monkeys = 100;

  @Option(names = "--serve-for", paramLabel = "DURATION", converter = Durations.OrForever.class, defaultValue = "0s",
      description = "serve on after the demo requests; forever = until Ctrl-C (default ${DEFAULT-VALUE})")
  private Duration serveFor;

  @Option(names = "--metrics-port", paramLabel = "N",
      description = "serve the actor system's meters for Prometheus at GET /metrics on this port, 0 = any free one (default: none)")
  private Integer metricsPort;

  @Option(names = "--monkey-delay", paramLabel = "DURATION", converter = Durations.Converter.class, defaultValue = "0s",
      description = "each monkey's pause before it answers; over --timeout shows the 503 (default ${DEFAULT-VALUE})")
  private Duration monkeyDelay;

  @Override
  protected int run(PrintStream out) throws Exception {
    within("--monkeys", monkeys, 1, MonkeyServer.MAX_MONKEYS);
    within("--port", port, 0, 65_535);
    if (metricsPort != null) {
      within("--metrics-port", metricsPort, 0, 65_535);
    }
    if (timeout.isZero()) {
      throw usageError("--timeout must be positive, got " + Durations.format(timeout));
    }
    MonkeyServer.Settings settings = new MonkeyServer.Settings(host, port, timeout, monkeyDelay,
        metricsPort == null ? MonkeyServer.Settings.NO_METRICS : metricsPort);

    MonkeyServer server;
    try {
      server = MonkeyServer.start(settings);
    } catch (UncheckedIOException e) {
      out.println(e.getMessage());
      return 1;
    }
    // Ctrl-C or SIGTERM: the hook stops the server and says so (the JVM may end before run() does)
    AtomicBoolean said = new AtomicBoolean();
    Runnable stop = () -> {
      server.stop();
      if (said.compareAndSet(false, true)) {
        out.println("stopped");
      }
    };
    Thread hook = new Thread(stop, "monkeys-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      URI uri = server.uri();
      out.println("listening on " + uri);
      server.metricsUri().ifPresent(m -> out.println("metrics on " + m));
      demo(uri, monkeys, settings.timeout(), out);
      if (server.metricsUri().isPresent()) {
        scrape(server.metricsUri().get(), out);
      }
      if (!serveFor.isZero()) {
        boolean forever = serveFor.equals(Durations.FOREVER);
        out.println("try: curl -d number=100 " + uri + "/write");
        server.metricsUri().ifPresent(m -> out.println("     curl " + m));
        out.println(forever ? "serving until Ctrl-C" : "serving for " + Durations.format(serveFor));
        try {
          if (forever) {
            server.whenStopped().toCompletableFuture().get();
          } else {
            server.whenStopped().toCompletableFuture().get(serveFor.toMillis(), TimeUnit.MILLISECONDS);
          }
        } catch (TimeoutException e) {
          // served long enough
        }
      }
    } finally {
      stop.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook has stopped the server, or is stopping it
      }
    }
    return 0;
  }

  /** A few requests a user would try first, and their answers. */
  private static void demo(URI uri, int monkeys, Duration timeout, PrintStream out) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    Duration wait = timeout.plusSeconds(5);
    show(client, HttpRequest.newBuilder(uri.resolve("/ping")).timeout(wait).GET().build(), "GET  /ping", out);
    for (int n : new int[] {monkeys, 0}) {
      HttpRequest write = HttpRequest.newBuilder(uri.resolve("/write"))
          .timeout(wait)
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("number=" + n))
          .build();
      show(client, write, "POST /write number=" + n, out);
    }
  }

  /** The meters' names that the demo's scrape shows: the monkeys' and the dispatcher's messages. */
  private static final List<String> SHOWN = List.of(
      "troupe_actor_messages_total{actor_class=\"" + MonkeyWorker.class.getName() + "\"",
      "troupe_actor_messages_total{actor_class=\"" + Shakespeare.class.getName() + "\"",
      "troupe_dispatcher_messages_total{",
      "troupe_dispatcher_mailbox_runs_total{");

  /**
   * Scrapes {@code /metrics} as Prometheus would and prints the lines of {@link #SHOWN}. The
   * meters follow a snapshot taken every second, so it scrapes again until the monkeys' counter
   * is there (at most 10 s) and says so if it never is.
   */
  private static void scrape(URI metrics, PrintStream out) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest get = HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).GET().build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    HttpResponse<String> r;
    List<String> lines;
    do {
      r = client.send(get, HttpResponse.BodyHandlers.ofString());
      lines = r.body().lines().filter(l -> SHOWN.stream().anyMatch(l::startsWith)).toList();
      if (lines.stream().anyMatch(l -> l.startsWith(SHOWN.get(0)))) {
        break;
      }
      Thread.sleep(200);
    } while (System.nanoTime() - deadline < 0);
    out.printf("%-24s -> %d, %d lines; among them:%n", "GET  /metrics", r.statusCode(), r.body().lines().count());
    if (lines.isEmpty()) {
      out.println("  (no actor or dispatcher meters yet)");
    }
    lines.forEach(l -> out.println("  " + l));
  }

  private static void show(HttpClient client, HttpRequest request, String what, PrintStream out) throws Exception {
    HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
    out.printf("%-24s -> %d %s%n", what, r.statusCode(), r.body().strip());
  }
}
