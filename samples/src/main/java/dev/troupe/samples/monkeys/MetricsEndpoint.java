package dev.troupe.samples.monkeys;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.troupe.actor.ActorSystem;
import dev.troupe.micrometer.TroupeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an actor system's meters ({@code troupe-micrometer}'s {@link TroupeMetrics}) in
 * Prometheus' text format at {@code GET /metrics}, on an HTTP server of its own (the JDK's {@link
 * HttpServer}, one thread): a scrape never queues behind the application's requests, and the port
 * can stay private while the application's is public.
 *
 * <p>The dispatcher and actor-class meters need {@code troupe.telemetry.enabled = on} in the
 * system; their values follow the binder's snapshot, taken every second, so a scrape trails the
 * actors by at most that.
 */
final class MetricsEndpoint {
  /** The one path it answers. */
  static final String PATH = "/metrics";

  /** Prometheus' text exposition format, version 0.0.4. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** The start of the name of its thread, followed by the port. */
  static final String THREAD_PREFIX = "monkeys-metrics-";

  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

  private final PrometheusMeterRegistry registry;
  private final TroupeMetrics binder;
  private final HttpServer http;
  private final ExecutorService executor;

  private MetricsEndpoint(ActorSystem system, HttpServer http) {
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.binder = new TroupeMetrics(system);
    binder.bindTo(registry);
    this.http = http;
    int port = http.getAddress().getPort();
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, THREAD_PREFIX + port);
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(executor);
    http.createContext("/", this::handle);
    http.start();
  }

  /**
   * Binds {@code host:port}, binds the system's meters to a Prometheus registry and serves them.
   *
   * @param system the actor system, with telemetry on
   * @param host the address to listen on
   * @param port the port, 0 for any free one
   * @return the running endpoint; {@link #stop} it
   * @throws UncheckedIOException if the address cannot be bound
   */
  static MetricsEndpoint start(ActorSystem system, String host, int port) {
    InetSocketAddress address = new InetSocketAddress(host, port);
    try {
      if (address.isUnresolved()) {
        throw new IOException("unknown host");
      }
      return new MetricsEndpoint(system, HttpServer.create(address, 16));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  /** @return the scrape address, e.g. {@code http://127.0.0.1:41235/metrics}, with the bound port */
  URI uri() {
    InetSocketAddress a = http.getAddress();
    String host = a.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + PATH);
  }

  /** Stops serving, unbinds the meters and ends the thread. */
  void stop() {
    http.stop(0);
    binder.close();
    registry.close();
    executor.shutdownNow();
  }

  private void handle(HttpExchange ex) {
    String path = ex.getRequestURI().getPath();
    if (!path.equals(PATH)) {
      send(ex, 404, "text/plain; charset=utf-8", "no such path: " + path + " (try GET " + PATH + ")\n");
    } else if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
      ex.getResponseHeaders().set("Allow", "GET, HEAD");
      send(ex, 405, "text/plain; charset=utf-8", ex.getRequestMethod() + " " + PATH + " is not allowed; use GET\n");
    } else {
      send(ex, 200, CONTENT_TYPE, registry.scrape());
    }
  }

  private static void send(HttpExchange ex, int status, String type, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    boolean head = ex.getRequestMethod().equals("HEAD");
    try (OutputStream out = ex.getResponseBody()) {
      ex.getResponseHeaders().set("Content-Type", type);
      ex.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        out.write(bytes);
      }
    } catch (IOException e) {
      LOG.debug("could not answer {} {}: {}", ex.getRequestMethod(), ex.getRequestURI(), e.toString());
    } finally {
      ex.close();
    }
  }
}
