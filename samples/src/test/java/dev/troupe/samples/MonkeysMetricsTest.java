package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.samples.monkeys.MonkeyServer;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The monkeys server's Prometheus endpoint ({@code --metrics-port}) over real HTTP on 127.0.0.1
 * (ephemeral ports), scraped as Prometheus would, and the sample's command line with it. The meters
 * follow a snapshot taken every second: every check of a value waits for it, bounded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MonkeysMetricsTest {
  private static final Duration ANSWER = Duration.ofSeconds(30);
  private static final Duration METERS = Duration.ofSeconds(20);
  private static final String WORKER = "dev.troupe.samples.monkeys.MonkeyWorker";
  private static final String SHAKESPEARE = "dev.troupe.samples.monkeys.Shakespeare";

  static MonkeyServer server;
  static TestKit kit;
  static HttpClient client;
  static URI metrics;

  @BeforeAll
  static void start() {
    server = MonkeyServer.start(
        new MonkeyServer.Settings("127.0.0.1", 0, Duration.ofSeconds(30), Duration.ZERO, 0));
    kit = new TestKit(server.system());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(ANSWER).build();
    metrics = server.metricsUri().orElseThrow(() -> new AssertionError("no metrics endpoint with metricsPort 0"));
  }

  @AfterAll
  static void stopAndTheEndpointIsGone() {
    server.stop();
    assertThrows(IOException.class, () -> client.send(get(metrics), HttpResponse.BodyHandlers.ofString()),
        "the metrics endpoint still answers after stop");
  }

  private static HttpRequest get(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(ANSWER).GET().build();
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
  }

  private static String scrape() {
    try {
      HttpResponse<String> r = send(get(metrics));
      assertEquals(200, r.statusCode(), r.body());
      return r.body();
    } catch (Exception e) {
      throw new AssertionError("GET " + metrics + " failed", e);
    }
  }

  private static void write(int monkeys) throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(server.uri().resolve("/write")).timeout(ANSWER)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("number=" + monkeys)).build());
    assertEquals(200, r.statusCode(), r.body());
  }

  /**
   * The value of the sample whose name is {@code name} and whose labels include {@code label} (e.g.
   * {@code actor_class="..."}) and {@code system="monkeys"}; -1 if there is none.
   */
  static double value(String body, String name, String label) {
    Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
    Matcher m = line.matcher(body);
    while (m.find()) {
      String labels = m.group(1);
      if (labels.contains(label) && labels.contains("system=\"monkeys\"")) {
        return Double.parseDouble(m.group(2));
      }
    }
    return -1;
  }

  private static double workerMessages(String body) {
    return value(body, "troupe_actor_messages_total", "actor_class=\"" + WORKER + "\"");
  }

  private static double dispatcherMessages(String body) {
    return value(body, "troupe_dispatcher_messages_total", "dispatcher=\"troupe.actor.default-dispatcher\"");
  }

  private static double dispatcherRuns(String body) {
    return value(body, "troupe_dispatcher_mailbox_runs_total", "dispatcher=\"troupe.actor.default-dispatcher\"");
  }

  /** Scrapes until {@code ok} holds for a scrape, at most {@link #METERS}; the last scrape. */
  private static String awaitScrape(String what, Predicate<String> ok) {
    return kit.awaitAssert(METERS, () -> {
      String body = scrape();
      assertTrue(ok.test(body), () -> what + "; the last scrape:\n" + body);
      return body;
    });
  }

  @Test
  void actorAndDispatcherMetersArePresentAndGrowBetweenTwoScrapes() throws Exception {
    HttpResponse<String> first = send(get(metrics));
    assertEquals(200, first.statusCode(), first.body());
    assertEquals("text/plain; version=0.0.4; charset=utf-8",
        first.headers().firstValue("Content-Type").orElse(""), "the scrape's content type");
    assertTrue(first.body().contains("# TYPE troupe_dead_letters_total counter"), first.body());

    write(50);
    String before = awaitScrape("the monkeys' and the dispatcher's meters after 50 monkeys",
        b -> workerMessages(b) >= 50 && value(b, "troupe_actor_messages_total",
            "actor_class=\"" + SHAKESPEARE + "\"") >= 1 && dispatcherMessages(b) > 0 && dispatcherRuns(b) > 0);
    assertTrue(before.contains("# TYPE troupe_actor_messages_total counter"), before);
    assertTrue(before.contains("# TYPE troupe_dispatcher_messages_total counter"), before);
    double workers = workerMessages(before);
    double dispatched = dispatcherMessages(before);
    double runs = dispatcherRuns(before);

    write(50);
    awaitScrape("the meters grown by the second /write (monkeys' messages were " + workers
            + ", the dispatcher's " + dispatched + ", its mailbox runs " + runs + ")",
        b -> workerMessages(b) >= workers + 50 && dispatcherMessages(b) > dispatched && dispatcherRuns(b) > runs);
  }

  @Test
  void onlyGetMetricsIsServed() throws Exception {
    HttpResponse<String> other = send(get(metrics.resolve("/write")));
    assertEquals(404, other.statusCode(), other.body());
    HttpResponse<String> post = send(HttpRequest.newBuilder(metrics).timeout(ANSWER)
        .POST(HttpRequest.BodyPublishers.ofString("x")).build());
    assertEquals(405, post.statusCode(), post.body());
    assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
  }

  @Test
  void theSampleScrapesItselfAndPrintsTheMonkeysMeters() {
    String out = Launcher.run(0, "monkeys", "--metrics-port", "0");
    assertTrue(Pattern.compile("(?m)^metrics on http://127\\.0\\.0\\.1:\\d+/metrics$").matcher(out).find(), out);
    assertTrue(out.contains("GET  /metrics            -> 200"), out);
    // the demo's 100 monkeys each handled at least their one Type message
    Matcher m = Pattern.compile("(?m)^  troupe_actor_messages_total\\{actor_class=\"" + Pattern.quote(WORKER)
        + "\",system=\"monkeys\"\\} (\\S+)$").matcher(out);
    assertTrue(m.find(), "the monkeys' counter in the demo's scrape:\n" + out);
    assertTrue(Double.parseDouble(m.group(1)) >= 100, out);
  }

  @Test
  void aBadOrBusyMetricsPortIsRefused() throws Exception {
    assertTrue(Launcher.run(2, "monkeys", "--metrics-port", "70000")
        .contains("--metrics-port must be <= 65535, got 70000"));
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      String out = Launcher.run(1, "monkeys", "--metrics-port", Integer.toString(taken.getLocalPort()));
      assertTrue(out.contains("cannot serve metrics on 127.0.0.1:" + taken.getLocalPort()), out);
    }
  }
}
