package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import dev.troupe.samples.remote.RemoteEchoServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The remote echo server in this JVM on a free port, and the client's main logic against it. */
class RemoteEchoSampleTest {
  private static final Pattern ADDRESS =
      Pattern.compile("echo server listening at (troupe://echo@127\\.0\\.0\\.1:(\\d+))\\R");

  static ActorSystem server;
  static String serverOut;
  static String address;

  @BeforeAll
  static void startServer() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    server = RemoteEchoServer.start("127.0.0.1", 0, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    serverOut = bytes.toString(StandardCharsets.UTF_8);
    Matcher m = ADDRESS.matcher(serverOut);
    assertTrue(m.find(), "the server prints its address:\n" + serverOut);
    address = m.group(1);
    assertTrue(Integer.parseInt(m.group(2)) > 0, "the bound port, not 0:\n" + serverOut);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      RemoteEchoServer.stop(server);
    }
  }

  private static String run(int expectedExit, String... args) {
    return Launcher.run(expectedExit, args);
  }

  @Test
  void theServerPrintsTheEchoPath() {
    assertTrue(serverOut.contains("echo actor: " + address + "/user/echo"), serverOut);
  }

  @Test
  void theClientLooksTheEchoUpAndGetsEveryReply() {
    String out =
        run(0, "remote-echo-client", "--target", address + "/user/echo", "--messages", "2000",
            "--in-flight", "10", "--payload-bytes", "64");
    assertTrue(out.contains("found " + address + "/user/echo"), out);
    assertTrue(out.contains("2000 replies of 64 bytes, 10 in flight"), out);
    assertTrue(out.matches("(?s).*round trip \\(us\\): p50 [\\d.]+  p90 [\\d.]+  p99 [\\d.]+  p99\\.9 [\\d.]+  max [\\d.]+.*"), out);
    assertTrue(out.contains("messages/s (both directions)"), out);
  }

  @Test
  void theClientDeploysWorkersOntoTheServerByConfigurationAndUsesThem() {
    String out = run(0, "remote-echo-client", "--target", address, "--deploy", "3", "--messages", "300", "--in-flight", "6");
    for (int i = 1; i <= 3; i++) {
      Matcher m = Pattern.compile("deployed w" + i + " on " + Pattern.quote(address) + ": "
          + Pattern.quote(address) + "/remote/echo-client@127\\.0\\.0\\.1:\\d+/user/workers/w" + i + "\\R").matcher(out);
      assertTrue(m.find(), "w" + i + " runs on the server, under /remote:\n" + out);
    }
    assertTrue(out.contains("300 replies of 100 bytes, 6 in flight"), out);
  }

  @Test
  void theWatchingClientReportsWhenTheServersNodeGoes() throws Exception {
    ByteArrayOutputStream serverBytes = new ByteArrayOutputStream();
    ActorSystem other = RemoteEchoServer.start("127.0.0.1", 0, new PrintStream(serverBytes, true, StandardCharsets.UTF_8));
    try {
      String otherAddress = other.address().toString();
      CompletableFuture<Void> watching = new CompletableFuture<>();
      ByteArrayOutputStream bytes =
          new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
              super.write(b, off, len);
              if (toString(StandardCharsets.UTF_8).contains("watching 1 echo actor(s)")) {
                watching.complete(null);
              }
            }
          };
      PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      CompletableFuture<Integer> exit =
          CompletableFuture.supplyAsync(
              () -> Main.run(
                  new String[] {"remote-echo-client", "--target", otherAddress + "/user/echo", "--messages", "100", "--watch", "30"},
                  out, out));
      CompletableFuture.anyOf(watching, exit).get(30, TimeUnit.SECONDS);
      assertTrue(watching.isDone(), "the client ended before watching:\n" + bytes);
      RemoteEchoServer.stop(other); // its leaving notice reaches the client at once

      assertEquals(0, exit.get(30, TimeUnit.SECONDS));
      String printed = bytes.toString(StandardCharsets.UTF_8);
      assertTrue(printed.contains("lost " + otherAddress + "/user/echo"), printed);
      assertTrue(printed.matches("(?s).*noticed \\d+ ms after its last reply.*"), printed);
    } finally {
      RemoteEchoServer.stop(other);
    }
  }

  @Test
  void aDeploymentTheServerRefusesEndsTheClientWithAMessage() {
    ActorSystem closed = dev.troupe.actor.ActorSystem.create(
        "closed", com.typesafe.config.ConfigFactory.parseString(
            "troupe.actor.provider = remote\ntroupe.remote.canonical.port = 0\n")
            .withFallback(com.typesafe.config.ConfigFactory.load()));
    try {
      String out = run(1, "remote-echo-client", "--target", closed.address().toString(), "--deploy", "1");
      assertTrue(out.contains("the deployment of w1 onto " + closed.address() + " was refused"), out);
    } finally {
      RemoteEchoServer.stop(closed);
    }
  }

  @Test
  void theClientFailsClearlyWhenNothingIsAtTheTarget() {
    String out = run(1, "remote-echo-client", "--target", address + "/user/nobody", "--messages", "10");
    assertTrue(out.contains("no actor at " + address + "/user/nobody"), out);
  }

  @Test
  void theClientNeedsATarget() {
    assertTrue(run(2, "remote-echo-client").contains("--target is required"));
    assertTrue(run(2, "remote-echo-client", "--target", address + "/user/echo", "--in-flight", "0")
        .contains("--in-flight must be >= 1"));
  }

  @Test
  void bothHaveHelp() {
    assertTrue(run(0, "remote-echo-server", "--help").contains("--port"));
    assertTrue(run(0, "remote-echo-client", "--help").contains("--in-flight"));
  }
}
