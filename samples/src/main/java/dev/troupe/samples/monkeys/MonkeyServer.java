package dev.troupe.samples.monkeys;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.pattern.AskTimeoutException;
import dev.troupe.pattern.Patterns;
import dev.troupe.samples.Durations;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The infinite-monkeys HTTP server: the JDK's {@link HttpServer} in front of an actor system.
 *
 * <ul>
 *   <li>{@code GET /ping} answers {@code pong}.
 *   <li>{@code POST /write} with the form field {@code number=N} (1..{@value #MAX_MONKEYS}, in an
 *       {@code application/x-www-form-urlencoded} body or the query) gives the request a {@link
 *       Shakespeare} of its own, who hires N monkeys, and answers JSON: {@code {"shakespearian":
 *       [...], "unworthy": n, "typed": t, "monkeys": N, "millis": m}}.
 *   <li>Bad input answers 400, 404, 405, 413 or 415 with a one-line reason; a request that outlives
 *       the timeout answers 503, and its monkeys are stopped.
 *   <li>With a metrics port ({@link Settings#metricsPort}), a second server answers {@code GET
 *       /metrics} with the actor system's meters in Prometheus' text format ({@link
 *       MetricsEndpoint}).
 * </ul>
 *
 * <p>The server's executor has {@value #HTTP_THREADS} threads and none of them ever waits for an
 * actor: a handler reads the (small) request, hands it to the actors with an ask, and returns; the
 * exchange is completed from the ask's stage, on the same executor.
 */
public final class MonkeyServer {
  /** The most monkeys one request may hire. */
  public static final int MAX_MONKEYS = 10_000;

  /** The server executor's threads. */
  static final int HTTP_THREADS = 2;

  /** The start of the server executor's thread names, followed by the port. */
  static final String THREAD_PREFIX = "monkeys-http-";

  /** Connections the kernel may queue before the server accepts them: room for a burst. */
  static final int BACKLOG = 1024;

  /** The largest request body read; a form with one number needs far less. */
  static final int MAX_BODY = 1024;

  /** The actor system's name. */
  static final String SYSTEM_NAME = "monkeys";

  /** How much longer than the timeout the server waits for a Shakespeare's own answer. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(MonkeyServer.class);
  private static final String FORM = "application/x-www-form-urlencoded";

  /** Writes the {@link Answer}s; thread-safe, shared by the HTTP threads. */
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * How to run the server.
   *
   * @param host the address to bind
   * @param port the port to bind, 0 for any free one
   * @param timeout how long a {@code /write} may take before it answers 503; positive
   * @param monkeyDelay how long each monkey waits before it answers; zero or positive (longer than
   *     {@code timeout} makes every {@code /write} time out)
   * @param metricsPort the port of the Prometheus scrape endpoint ({@code GET /metrics}, on {@code
   *     host}), 0 for any free one, {@link #NO_METRICS} for none
   */
  public record Settings(String host, int port, Duration timeout, Duration monkeyDelay, int metricsPort) {
    /** {@link #metricsPort} when no metrics are served. */
    public static final int NO_METRICS = -1;

    /**
     * Checks every value.
     *
     * @param host the address to bind
     * @param port the port to bind, 0 for any free one
     * @param timeout how long a {@code /write} may take; positive
     * @param monkeyDelay each monkey's pause before it answers; zero or positive
     * @param metricsPort the scrape endpoint's port, 0 for any free one, {@link #NO_METRICS} for none
     * @throws IllegalArgumentException naming the value that is out of range
     */
    public Settings {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(monkeyDelay, "monkeyDelay");
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be 0..65535, got " + port);
      }
      if (metricsPort != NO_METRICS && (metricsPort < 0 || metricsPort > 65_535)) {
        throw new IllegalArgumentException("metricsPort must be 0..65535 or " + NO_METRICS + ", got " + metricsPort);
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + Durations.format(timeout));
      }
      if (monkeyDelay.isNegative()) {
        throw new IllegalArgumentException("monkeyDelay must not be negative, got " + Durations.format(monkeyDelay));
      }
    }

    /**
     * Settings without a metrics endpoint.
     *
     * @param host the address to bind
     * @param port the port to bind, 0 for any free one
     * @param timeout how long a {@code /write} may take; positive
     * @param monkeyDelay each monkey's pause before it answers; zero or positive
     */
    public Settings(String host, int port, Duration timeout, Duration monkeyDelay) {
      this(host, port, timeout, monkeyDelay, NO_METRICS);
    }
  }

  /**
   * The system's configuration over the samples' {@code application.conf}: with a metrics endpoint,
   * the runtime's telemetry is on (the dispatcher and actor-class meters read it) and its JMX beans
   * off (Prometheus is where these numbers go; two servers in one JVM would clash there).
   */
  private static Config config(Settings settings) {
    Config file = ConfigFactory.load();
    return settings.metricsPort() == Settings.NO_METRICS
        ? file
        : ConfigFactory.parseString("troupe.telemetry { enabled = on, jmx = off }").withFallback(file);
  }

  private final Settings settings;
  private final Workshop workshop;
  private final ActorSystem system;
  private final ActorRef globe;
  private final ExecutorService executor;
  private final HttpServer http;
  private final MetricsEndpoint metrics; // null: no metrics port
  private final AtomicInteger inFlight = new AtomicInteger(); // any thread
  private final AtomicBoolean stopping = new AtomicBoolean(); // any thread
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();

  private MonkeyServer(Settings settings, Lexicon lexicon, HttpServer http) {
    this.settings = settings;
    this.workshop = new Workshop(lexicon, settings.timeout(), settings.monkeyDelay(), new AtomicInteger());
    this.system = ActorSystem.create(SYSTEM_NAME, config(settings));
    MetricsEndpoint m = null;
    try {
      if (settings.metricsPort() != Settings.NO_METRICS) {
        m = MetricsEndpoint.start(system, settings.host(), settings.metricsPort());
      }
    } catch (UncheckedIOException e) {
      http.stop(0);
      system.terminate();
      throw e;
    }
    this.metrics = m;
    this.globe = system.actorOf(Globe.props(workshop), Globe.NAME);
    this.executor = Executors.newFixedThreadPool(HTTP_THREADS, threads(http.getAddress().getPort()));
    this.http = http;
    http.setExecutor(executor);
    http.createContext("/", this::handle);
    http.start();
  }

  /**
   * Binds the address, then starts the actors and the HTTP server.
   *
   * @param settings how
   * @return the running server; {@link #stop} it
   * @throws UncheckedIOException if the address cannot be bound (nothing is left running then)
   */
  public static MonkeyServer start(Settings settings) {
    Lexicon lexicon = Lexicon.load();
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    try {
      if (address.isUnresolved()) {
        throw new IOException("unknown host");
      }
      return new MonkeyServer(settings, lexicon, HttpServer.create(address, BACKLOG));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
  }

  /** @return where it listens, e.g. {@code http://127.0.0.1:41234}, with the bound port */
  public URI uri() {
    InetSocketAddress a = http.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort());
  }

  /**
   * @return where Prometheus scrapes the actor system's meters, e.g. {@code
   *     http://127.0.0.1:41235/metrics}; empty without a metrics port
   */
  public Optional<URI> metricsUri() {
    return Optional.ofNullable(metrics).map(MetricsEndpoint::uri);
  }

  /** @return its actor system: {@code /user/globe} is its one fixed actor */
  public ActorSystem system() {
    return system;
  }

  /** @return the word list that judges the monkeys */
  public Lexicon lexicon() {
    return workshop.lexicon();
  }

  /** @return the monkeys alive right now (hired and not yet stopped) */
  public int liveMonkeys() {
    return workshop.liveMonkeys().get();
  }

  /**
   * Asks the globe how many requests' Shakespeares are still at work.
   *
   * @return their count
   */
  public CompletionStage<Integer> shakespearesAtWork() {
    return Patterns.ask(globe, Globe.Census.PLEASE, Duration.ofSeconds(5))
        .thenApply(w -> ((Globe.Working) w).shakespeares());
  }

  /**
   * Stops the server: no new connections; requests in flight get their answer (or their 503) first,
   * for at most the timeout; then the actor system terminates and the executor's threads end. A
   * second call waits for the first one.
   *
   * @throws IllegalStateException if the actor system does not terminate within 10 s
   */
  public void stop() {
    if (!stopping.compareAndSet(false, true)) {
      stopped.join();
      return;
    }
    try {
      http.stop(inFlight.get() == 0 ? 0 : (int) Math.max(1, settings.timeout().plus(GRACE).toSeconds()));
      if (metrics != null) {
        metrics.stop();
      }
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
      executor.shutdown();
      if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping", e);
    } catch (Exception e) {
      throw new IllegalStateException("the monkeys' actor system did not terminate in 10 s", e);
    } finally {
      stopped.complete(null);
    }
  }

  /** @return completes once {@link #stop} has finished */
  public CompletionStage<Void> whenStopped() {
    return stopped;
  }

  // ---- HTTP: runs on the server's executor and never waits ----

  private void handle(HttpExchange ex) {
    try {
      String path = ex.getRequestURI().getPath();
      switch (path) {
        case "/ping" -> {
          allow(ex, "GET");
          respond(ex, 200, "pong");
        }
        case "/write" -> {
          allow(ex, "POST");
          write(ex, number(ex));
        }
        default -> throw new BadRequest(404, "no such path: " + path + " (try GET /ping or POST /write number=N)");
      }
    } catch (BadRequest e) {
      respond(ex, e.status, e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
      respond(ex, 500, "internal error: " + e);
    }
  }

  private static void allow(HttpExchange ex, String method) {
    if (!ex.getRequestMethod().equals(method)) {
      ex.getResponseHeaders().set("Allow", method);
      throw new BadRequest(405, ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " is not allowed; use " + method);
    }
  }

  private void write(HttpExchange ex, int number) {
    inFlight.incrementAndGet();
    Patterns.ask(globe, new Shakespeare.Write(number), settings.timeout().plus(GRACE))
        .whenCompleteAsync((answer, error) -> {
          try {
            if (error == null) {
              respondJson(ex, json((Shakespeare.Written) answer));
            } else {
              failed(ex, error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
            }
          } finally {
            inFlight.decrementAndGet();
          }
        }, executor);
  }

  private void failed(HttpExchange ex, Throwable error) {
    if (error instanceof Shakespeare.TimedOut) {
      respond(ex, 503, error.getMessage());
    } else if (error instanceof AskTimeoutException) {
      respond(ex, 503, "no answer within " + Durations.format(settings.timeout().plus(GRACE)));
    } else {
      LOG.warn("POST /write failed", error);
      respond(ex, 500, "internal error: " + error);
    }
  }

  /** The {@code number} field, from the query or a form body; exactly once. */
  private static int number(HttpExchange ex) throws IOException {
    List<String> values = new ArrayList<>(field(ex.getRequestURI().getRawQuery(), "number"));
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      throw new BadRequest(413, "request body over " + MAX_BODY + " bytes");
    }
    if (body.length > 0) {
      String type = ex.getRequestHeaders().getFirst("Content-Type");
      if (type == null || !type.toLowerCase(Locale.ROOT).startsWith(FORM)) {
        throw new BadRequest(415, "send the form as " + FORM + ", not " + (type == null ? "no content type" : type));
      }
      values.addAll(field(new String(body, StandardCharsets.UTF_8), "number"));
    }
    if (values.isEmpty()) {
      throw new BadRequest(400, "missing form field number (1.." + MAX_MONKEYS + ")");
    }
    if (values.size() > 1) {
      throw new BadRequest(400, "form field number given " + values.size() + " times; give it once");
    }
    String v = values.get(0);
    int n;
    try {
      n = Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new BadRequest(400, "number must be a whole number 1.." + MAX_MONKEYS + ", got '" + printable(v) + "'");
    }
    if (n < 1 || n > MAX_MONKEYS) {
      throw new BadRequest(400, "number must be 1.." + MAX_MONKEYS + ", got " + n);
    }
    return n;
  }

  /** Every value of {@code name} in a URL-encoded form (or query), decoded. */
  static List<String> field(String form, String name) {
    List<String> values = new ArrayList<>();
    if (form == null || form.isEmpty()) {
      return values;
    }
    try {
      for (String pair : form.split("&")) {
        int eq = pair.indexOf('=');
        String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        if (key.equals(name)) {
          values.add(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new BadRequest(400, "malformed form encoding: " + e.getMessage());
    }
    return values;
  }

  /** A value as a reason line may quote it: one line, at most 40 characters. */
  private static String printable(String v) {
    String one = v.replaceAll("\\p{Cntrl}", "?");
    return one.length() <= 40 ? one : one.substring(0, 40) + "...";
  }

  /**
   * The answer to a {@code /write}, as JSON: {@code
   * {"shakespearian":[...],"unworthy":n,"typed":t,"monkeys":N,"millis":m}}, in this order.
   *
   * @param shakespearian the real words typed, in the order the monkeys answered
   * @param unworthy how many typed words were not real
   * @param typed how many words were typed
   * @param monkeys how many monkeys typed
   * @param millis how long the request took
   */
  @JsonPropertyOrder({"shakespearian", "unworthy", "typed", "monkeys", "millis"})
  record Answer(List<String> shakespearian, int unworthy, int typed, int monkeys, long millis) {
    static Answer of(Shakespeare.Written w) {
      return new Answer(w.tally().shakespearian(), w.tally().unworthy(), w.tally().typed(), w.monkeys(), w.millis());
    }
  }

  static String json(Shakespeare.Written w) {
    try {
      return JSON.writeValueAsString(Answer.of(w));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an answer of words and numbers could not be written as JSON", e);
    }
  }

  private static void respond(HttpExchange ex, int status, String line) {
    send(ex, status, "text/plain; charset=utf-8", line + "\n");
  }

  private static void respondJson(HttpExchange ex, String json) {
    send(ex, 200, "application/json", json + "\n");
  }

  private static void send(HttpExchange ex, int status, String type, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = ex.getResponseBody()) {
      ex.getResponseHeaders().set("Content-Type", type);
      ex.sendResponseHeaders(status, bytes.length);
      out.write(bytes);
    } catch (IOException e) {
      LOG.debug("could not answer {} {}: {}", ex.getRequestMethod(), ex.getRequestURI(), e.toString());
    } finally {
      ex.close();
    }
  }

  /** @return the start of the names of this server's executor threads: {@code monkeys-http-PORT-} */
  public String threadPrefix() {
    return THREAD_PREFIX + http.getAddress().getPort() + "-";
  }

  private static ThreadFactory threads(int port) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, THREAD_PREFIX + port + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** A request the server refuses: the status and the one-line reason. */
  private static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    BadRequest(int status, String reason) {
      super(reason, null, false, false);
      this.status = status;
    }
  }
}
