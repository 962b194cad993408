package dev.troupe.samples.monkeys;

import dev.troupe.samples.Flags;
import dev.troupe.samples.Sample;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Infinite monkeys behind an HTTP server ({@link MonkeyServer}): {@code POST /write number=N} hires
 * N monkeys who type random words, and Shakespeare keeps the real ones. The sample starts the
 * server, sends it a few demo requests with the JDK's HTTP client, prints the answers, then serves
 * on for {@code --serve-for} (default: not at all) and stops.
 *
 * <pre>
 * java -jar samples/target/troupe-samples.jar monkeys
 * java -jar samples/target/troupe-samples.jar monkeys --port 8080 --serve-for forever
 * curl -d number=100 http://127.0.0.1:8080/write
 * </pre>
 */
public final class Monkeys implements Sample {
  private static final Flags.Spec OPTIONS =
      Flags.spec("monkeys", "an HTTP server where actor monkeys type and Shakespeare keeps the real words")
          .text("host", "HOST", "the address to listen on", "127.0.0.1")
          .number("port", "the port to listen on, 0 = any free one", 0, 0)
          .text("timeout", "DURATION", "how long a /write may take, then 503", "5s")
          .number("monkeys", "monkeys in the demo's /write (1.." + MonkeyServer.MAX_MONKEYS + ")", 100, 1)
          .text("serve-for", "DURATION", "serve on after the demo requests; forever = until Ctrl-C", "0s")
          .text("monkey-delay", "DURATION", "each monkey's pause before it answers; over --timeout shows the 503", "0s");

  /** What {@code --help} adds after the options: what the sample does and what the server answers. */
  private static final String MORE = String.join("\n",
      "",
      "It starts the server, sends it GET /ping, POST /write number=<monkeys> and a bad POST /write",
      "number=0 with the JDK's HTTP client, prints the answers, serves on for the --serve-for time,",
      "then stops (exit code 0). The server answers:",
      "  GET  /ping              pong",
      "  POST /write number=N    {\"shakespearian\":[...],\"unworthy\":n,\"typed\":t,\"monkeys\":N,\"millis\":m}",
      "                          (N = 1.." + MonkeyServer.MAX_MONKEYS + ", a form field or a query parameter)",
      "  bad input               400, 404, 405, 413 or 415 with a one-line reason",
      "  a slow /write           503 after the --timeout time; its monkeys are stopped",
      "Example: monkeys --port 8080 --serve-for forever",
      "         curl -d number=100 http://127.0.0.1:8080/write");

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  @Override
  public String name() {
    return "monkeys";
  }

  @Override
  public String description() {
    return OPTIONS.description();
  }

  @Override
  public int run(String[] args, PrintStream out) throws Exception {
    Flags f;
    try {
      f = OPTIONS.parse(args);
    } catch (Flags.Exit e) {
      throw e.code() == 0 ? new Flags.Exit(0, e.getMessage() + "\n" + MORE) : e;
    }
    MonkeyServer.Settings settings;
    Duration serveFor;
    int monkeys = f.intValue("monkeys");
    try {
      serveFor = f.text("serve-for").equals("forever") ? null : duration("serve-for", f.text("serve-for"));
      Duration timeout = duration("timeout", f.text("timeout"));
      if (timeout.isZero()) {
        throw new IllegalArgumentException("--timeout must be positive, got " + f.text("timeout"));
      }
      if (monkeys > MonkeyServer.MAX_MONKEYS) {
        throw new IllegalArgumentException("--monkeys must be <= " + MonkeyServer.MAX_MONKEYS + ", got " + monkeys);
      }
      if (f.intValue("port") > 65_535) {
        throw new IllegalArgumentException("--port must be <= 65535, got " + f.intValue("port"));
      }
      settings = new MonkeyServer.Settings(
          f.text("host"), f.intValue("port"), timeout, duration("monkey-delay", f.text("monkey-delay")));
    } catch (IllegalArgumentException e) {
      throw new Flags.Exit(Flags.USAGE_ERROR, e.getMessage() + "\n(monkeys --help lists the options)");
    }

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
      demo(uri, monkeys, settings.timeout(), out);
      if (serveFor == null || !serveFor.isZero()) {
        out.println("try: curl -d number=100 " + uri + "/write");
        out.println(serveFor == null ? "serving until Ctrl-C" : "serving for " + MonkeyServer.format(serveFor));
        try {
          if (serveFor == null) {
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

  private static void show(HttpClient client, HttpRequest request, String what, PrintStream out) throws Exception {
    HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
    out.printf("%-24s -> %d %s%n", what, r.statusCode(), r.body().strip());
  }

  /**
   * Parses a duration as the command line writes it: a whole number and a unit, e.g. {@code 500ms},
   * {@code 5s}, {@code 2m}, {@code 1h}.
   *
   * @param option the option's name, for the message
   * @param text the value
   * @return the duration
   * @throws IllegalArgumentException naming the option if the value is not one
   */
  static Duration duration(String option, String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "--" + option + " must be a duration like 500ms, 5s, 2m or 1h, got '" + text + "'");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
