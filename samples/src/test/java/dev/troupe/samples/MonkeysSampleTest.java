package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.Identify;
import dev.troupe.samples.monkeys.MonkeyServer;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The monkeys server over real HTTP on 127.0.0.1 (an ephemeral port), and the sample on the
 * command line. Every wait is bounded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MonkeysSampleTest {
  private static final Duration ANSWER = Duration.ofSeconds(60);
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final ObjectMapper JSON = new ObjectMapper();

  static MonkeyServer server;
  static TestProbe probe; // the one probe in the server's system: /user/testActor-N
  static HttpClient client;

  @BeforeAll
  static void start() {
    // A generous timeout: on a loaded machine the 200 concurrent requests must not time out.
    server = MonkeyServer.start(new MonkeyServer.Settings("127.0.0.1", 0, Duration.ofSeconds(30), Duration.ZERO));
    probe = new TestProbe(server.system());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(ANSWER).build();
  }

  @AfterAll
  static void nothingIsLeftBehindAndTheServerStops() {
    try {
      awaitIdle(server, probe);
      // Everything under /user: the globe, and this check's own probe; nothing under the globe.
      Set<String> expected = new TreeSet<>(List.of("/user/globe", "/user/" + probe.getRef().path().name()));
      assertEquals(expected, identify(probe, "/user/*"), "actors under /user after all tests");
      assertEquals(Set.of(), identify(probe, "/user/globe/*"), "actors under /user/globe after all tests");
    } finally {
      stopAndCheck(server);
    }
  }

  // ---- helpers ----

  private static URI uri(String pathAndQuery) {
    return server.uri().resolve(pathAndQuery);
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
  }

  private static HttpRequest postForm(URI target, String body) {
    return HttpRequest.newBuilder(target).timeout(ANSWER).header("Content-Type", FORM)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private static HttpRequest write(int number) {
    return postForm(uri("/write"), "number=" + number);
  }

  /** Checks a 200 /write answer: JSON whose kept words are all in the list and whose counts add up. */
  private static JsonNode checkWritten(HttpResponse<String> r, int monkeys) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""), r.body());
    JsonNode json = JSON.readTree(r.body());
    assertEquals(monkeys, json.get("monkeys").asInt(), r.body());
    int unworthy = json.get("unworthy").asInt(-1);
    assertTrue(unworthy >= 0, r.body());
    JsonNode kept = json.get("shakespearian");
    assertTrue(kept.isArray(), r.body());
    for (JsonNode w : kept) {
      assertTrue(server.lexicon().contains(w.asText()), "'" + w.asText() + "' is not in the word list: " + r.body());
      assertTrue(w.asText().matches("[a-z]{1,5}"), r.body());
    }
    int typed = json.get("typed").asInt();
    assertEquals(kept.size() + unworthy, typed, "kept + unworthy = typed: " + r.body());
    assertTrue(typed >= monkeys && typed <= 8 * monkeys, "1..8 words per monkey: " + r.body());
    assertTrue(json.get("millis").asLong(-1) >= 0, r.body());
    return json;
  }

  /** Waits until no monkey is alive and no Shakespeare is at work. */
  private static void awaitIdle(MonkeyServer s, TestKit kit) {
    kit.awaitCond(Duration.ofSeconds(20), Duration.ofMillis(20),
        "every monkey and every Shakespeare stopped; still alive: " + s.liveMonkeys() + " monkeys",
        () -> s.liveMonkeys() == 0
            && s.shakespearesAtWork().toCompletableFuture().join() == 0);
  }

  /** The paths of the actors that answer an Identify sent to {@code pattern}. */
  private static Set<String> identify(TestProbe probe, String pattern) {
    server.system().actorSelection(pattern).tell(new Identify(pattern), probe.getRef());
    Set<String> paths = new TreeSet<>();
    Object m;
    // A selection that matches nothing answers nothing: collect answers until a quiet second.
    while ((m = probe.receiveOne(Duration.ofSeconds(1))) != null) {
      ActorIdentity id = (ActorIdentity) m;
      id.ref().ifPresent(r -> paths.add(r.path().toString().replaceFirst("^[^/]*//[^/]*", "")));
    }
    return paths;
  }

  private static void stopAndCheck(MonkeyServer s) {
    s.stop();
    assertTrue(s.system().getWhenTerminated().toCompletableFuture().isDone(), "the actor system terminated");
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!TestKit.liveThreads(s.threadPrefix()).isEmpty() && System.nanoTime() < end) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // a thread's end has no event to wait on
    }
    assertEquals(Set.of(), TestKit.liveThreads(s.threadPrefix()), "the server's threads ended");
  }

  // ---- the server ----

  @Test
  void pingAnswersPong() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/ping")).timeout(ANSWER).GET().build());
    assertEquals(200, r.statusCode());
    assertEquals("pong\n", r.body());
  }

  @Test
  void writeAnswersJsonWithOnlyListedWordsAndStopsItsMonkeys() throws Exception {
    JsonNode json = checkWritten(send(write(300)), 300);
    // ~1,350 random words of 1..5 letters: about 3% are in the list, none at all would be a bug.
    assertFalse(json.get("shakespearian").isEmpty(), "no real word among " + json.get("typed") + ": " + json);
    awaitIdle(server, probe);
  }

  @Test
  void theNumberMayComeInTheQueryAndTheFormMayNameItsCharset() throws Exception {
    checkWritten(send(HttpRequest.newBuilder(uri("/write?number=3")).timeout(ANSWER)
        .POST(HttpRequest.BodyPublishers.noBody()).build()), 3);
    checkWritten(send(HttpRequest.newBuilder(uri("/write")).timeout(ANSWER)
        .header("Content-Type", FORM + "; charset=UTF-8")
        .POST(HttpRequest.BodyPublishers.ofString("poet=will&number=%207")).build()), 7);
    checkWritten(send(write(10_000)), 10_000);
  }

  @Test
  void twoHundredConcurrentWritesAreAllAnsweredEachWithItsOwnMonkeys() throws Exception {
    int requests = 200;
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      answers.add(client.sendAsync(write(1 + i % 40), HttpResponse.BodyHandlers.ofString()));
    }
    CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0])).get(90, TimeUnit.SECONDS);
    for (int i = 0; i < requests; i++) {
      // Each answer counts exactly the monkeys its own request asked for: requests do not mix.
      checkWritten(answers.get(i).get(), 1 + i % 40);
    }
    awaitIdle(server, probe);
  }

  static Stream<Arguments> badRequests() {
    String big = "number=1&pad=" + "x".repeat(2000);
    return Stream.of(
        Arguments.of("POST", "/write", FORM, "", 400, "missing form field number (1..10000)"),
        Arguments.of("POST", "/write", FORM, "poet=will", 400, "missing form field number (1..10000)"),
        Arguments.of("POST", "/write", FORM, "number=many", 400, "number must be a whole number 1..10000, got 'many'"),
        Arguments.of("POST", "/write", FORM, "number=", 400, "number must be a whole number 1..10000, got ''"),
        Arguments.of("POST", "/write", FORM, "number=2.5", 400, "number must be a whole number 1..10000, got '2.5'"),
        Arguments.of("POST", "/write", FORM, "number=0", 400, "number must be 1..10000, got 0"),
        Arguments.of("POST", "/write", FORM, "number=-3", 400, "number must be 1..10000, got -3"),
        Arguments.of("POST", "/write", FORM, "number=10001", 400, "number must be 1..10000, got 10001"),
        Arguments.of("POST", "/write", FORM, "number=99999999999", 400, "number must be a whole number 1..10000, got '99999999999'"),
        Arguments.of("POST", "/write", FORM, "number=1&number=2", 400, "form field number given 2 times; give it once"),
        Arguments.of("POST", "/write?number=1", FORM, "number=2", 400, "form field number given 2 times; give it once"),
        Arguments.of("POST", "/write", FORM, "number=%zz", 400, "malformed form encoding"),
        Arguments.of("POST", "/write", "application/json", "{\"number\":3}", 415, "send the form as " + FORM),
        Arguments.of("POST", "/write", FORM, big, 413, "request body over 1024 bytes"),
        Arguments.of("GET", "/write?number=5", null, null, 405, "GET /write is not allowed; use POST"),
        Arguments.of("PUT", "/write", FORM, "number=5", 405, "PUT /write is not allowed; use POST"),
        Arguments.of("POST", "/ping", FORM, "number=5", 405, "POST /ping is not allowed; use GET"),
        Arguments.of("DELETE", "/ping", null, null, 405, "DELETE /ping is not allowed; use GET"),
        Arguments.of("GET", "/", null, null, 404, "no such path: / (try GET /ping or POST /write number=N)"),
        Arguments.of("GET", "/write/more", null, null, 404, "no such path: /write/more"),
        Arguments.of("POST", "/pingpong", FORM, "number=5", 404, "no such path: /pingpong"));
  }

  @ParameterizedTest(name = "{0} {1} {3} -> {4}")
  @MethodSource("badRequests")
  void badInputGetsItsStatusWithAOneLineReasonAndTheServerServesOn(
      String method, String target, String type, String body, int status, String reason) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(target)).timeout(ANSWER);
    if (type != null) {
      b.header("Content-Type", type);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = send(b.build());
    assertEquals(status, r.statusCode(), r.body());
    assertTrue(r.body().startsWith(reason), "reason '" + reason + "', got: " + r.body());
    assertTrue(r.body().endsWith("\n") && r.body().indexOf('\n') == r.body().length() - 1, "one line: " + r.body());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"), r.headers().toString());
    if (status == 405) {
      assertEquals(target.startsWith("/ping") ? "GET" : "POST", r.headers().firstValue("Allow").orElse(""));
    }
    assertEquals("pong\n", send(HttpRequest.newBuilder(uri("/ping")).timeout(ANSWER).GET().build()).body());
  }

  @Test
  void aWriteThatOutlivesTheTimeoutAnswers503AndItsMonkeysAreStopped() throws Exception {
    // Monkeys that would answer after an hour: every /write times out, whatever the machine's load.
    MonkeyServer slow = MonkeyServer.start(
        new MonkeyServer.Settings("127.0.0.1", 0, Duration.ofMillis(300), Duration.ofHours(1)));
    try {
      HttpRequest request = postForm(slow.uri().resolve("/write"), "number=50");
      long start = System.nanoTime();
      HttpResponse<String> r =
          client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(503, r.statusCode(), r.body());
      assertEquals("50 monkeys did not finish typing within 300ms\n", r.body());
      assertTrue(millis >= 300, "answered after " + millis + " ms, before the timeout");

      // The monkeys (50 of them, hired: the reason counts them) are stopped, and their Shakespeare.
      TestProbe slowProbe = new TestProbe(slow.system());
      awaitIdle(slow, slowProbe);

      // Many at once: each request times out with its own monkeys, and all of them are stopped.
      List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 1; i <= 40; i++) {
        answers.add(client.sendAsync(postForm(slow.uri().resolve("/write"), "number=" + i),
            HttpResponse.BodyHandlers.ofString()));
      }
      CompletableFuture.allOf(answers.toArray(new CompletableFuture<?>[0])).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
      for (int i = 1; i <= 40; i++) {
        HttpResponse<String> a = answers.get(i - 1).get();
        assertEquals(503, a.statusCode(), a.body());
        assertEquals(i + " monkeys did not finish typing within 300ms\n", a.body());
      }
      awaitIdle(slow, slowProbe);
      assertEquals("pong\n", client.sendAsync(HttpRequest.newBuilder(slow.uri().resolve("/ping")).GET().build(),
          HttpResponse.BodyHandlers.ofString()).get(ANSWER.toSeconds(), TimeUnit.SECONDS).body());
    } finally {
      stopAndCheck(slow);
    }
  }

  // ---- the sample on the command line ----

  @Test
  void theSampleRunsWithItsDefaultsAndEndsWithin30Seconds() {
    String out = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Launcher.run(0, "monkeys"));
    Matcher m = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)\\R").matcher(out);
    assertTrue(m.find(), out);
    assertTrue(Integer.parseInt(m.group(1)) > 0, "the bound port: " + out);
    assertTrue(out.matches("(?s).*GET  /ping +-> 200 pong\\R.*"), out);
    assertTrue(out.matches("(?s).*POST /write number=100 +-> 200 \\{\"shakespearian\":\\[.*\\],\"unworthy\":\\d+,"
        + "\"typed\":\\d+,\"monkeys\":100,\"millis\":\\d+}\\R.*"), out);
    assertTrue(out.matches("(?s).*POST /write number=0 +-> 400 number must be 1\\.\\.10000, got 0\\R.*"), out);
    assertTrue(out.endsWith("stopped" + System.lineSeparator()), out);
  }

  @Test
  void theSampleShowsTheTimeoutAndServesOnWhenAsked() {
    String out = Launcher.run(0, "monkeys", "--monkeys", "10", "--timeout", "200ms", "--monkey-delay", "1m",
        "--serve-for", "1s");
    assertTrue(out.matches("(?s).*POST /write number=10 +-> 503 10 monkeys did not finish typing within 200ms\\R.*"), out);
    assertTrue(out.matches("(?s).*try: curl -d number=100 http://127\\.0\\.0\\.1:\\d+/write\\R.*"), out);
    assertTrue(out.contains("serving for 1s"), out);
    assertTrue(out.endsWith("stopped" + System.lineSeparator()), out);
  }

  @Test
  void badOptionsAreRefusedBeforeAnythingStarts() {
    assertTrue(Launcher.run(2, "monkeys", "--timeout", "5")
        .contains("Invalid value for option '--timeout': '5' is not a duration like 500ms, 5s, 2m or 1h"));
    assertTrue(Launcher.run(2, "monkeys", "--timeout", "0s").contains("--timeout must be positive, got 0s"));
    assertTrue(Launcher.run(2, "monkeys", "--serve-for", "soon")
        .contains("Invalid value for option '--serve-for': 'soon' is not a duration like 500ms, 5s, 2m or 1h, or forever"));
    assertTrue(Launcher.run(2, "monkeys", "--monkey-delay", "-1s").contains("'--monkey-delay'"));
    assertTrue(Launcher.run(2, "monkeys", "--monkeys", "10001").contains("--monkeys must be <= 10000, got 10001"));
    assertTrue(Launcher.run(2, "monkeys", "--port", "70000").contains("--port must be <= 65535, got 70000"));
    String help = Launcher.run(0, "monkeys", "--help");
    assertTrue(help.contains("--serve-for=DURATION") && help.contains("forever = until Ctrl-C"), help);
    assertTrue(help.contains("POST /write number=N    {\"shakespearian\":[...]"), "the answers after the options:\n" + help);
  }

  @Test
  void aPortInUseEndsTheSampleWithExitCode1AndTheReason() {
    int port = server.uri().getPort();
    String out = Launcher.run(1, "monkeys", "--port", Integer.toString(port));
    assertTrue(out.startsWith("cannot listen on 127.0.0.1:" + port + ": "), out);
  }
}
