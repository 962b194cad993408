package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an accepted connection may cost a node: a handshake has a deadline from accept that
 * trickling bytes do not push back, a handshaken connection that reads nothing is closed after
 * {@code inbound-idle-timeout}, connections beyond the caps are closed at once while established
 * peers go on, and a heartbeat is answered on its own connection: the node never dials the origin
 * a peer claims.
 */
class RemoteConnectionLimitsTest {
  /** How many accepted connections the victim keeps open (in all, or from 127.0.0.1). */
  static final int CAP = 6;

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE);

  static ActorSystem peer;
  /** The node under attack, one per test (each tests one limit, with small values). */
  ActorSystem victim;

  @BeforeAll
  static void node() {
    peer = TROUPE.system();
  }

  private void victim(String advanced) {
    victim =
        TROUPE.createSystem(
            "troupe.remote.advanced { " + advanced + " }\n"
                + "troupe.remote.watch-failure-detector.heartbeat-interval = 100ms\n");
    victim.actorOf(Props.create(RemoteBadInputTest.Echo.class), "echo");
  }

  @Test
  void aHandshakeTricklingInOneByteAtATimeIsClosedAtTheDeadline() throws IOException {
    victim("handshake-timeout = 1s");
    try (Socket s = connect()) {
      long start = System.nanoTime();
      OutputStream out = s.getOutputStream();
      out.write(new byte[] {0, 0, 3, (byte) 0xE8}); // a frame of 1000 bytes that never completes
      s.setSoTimeout(200);
      while (true) {
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (elapsedMillis > 6_000) {
          fail("a connection that sends a byte every 200 ms is still open after " + elapsedMillis
              + " ms, with handshake-timeout = 1s");
        }
        try {
          out.write(0x54);
          out.flush();
          if (s.getInputStream().read() == -1) {
            break;
          }
          fail("the node answered a handshake it never got");
        } catch (SocketTimeoutException stillOpen) {
          // one more byte
        } catch (SocketException closed) {
          break;
        }
      }
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(took >= 900, "closed after " + took + " ms, before the 1 s deadline");
    }
    assertThePeerStillGetsItsRoundTrips();
  }

  @Test
  void aHandshakenConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() throws IOException {
    victim("inbound-idle-timeout = 1500ms");
    try (Socket s = connect()) {
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, victim.address().toString()));
      Nodes.readAck(s.getInputStream());
      long start = System.nanoTime();
      assertClosed(s);
      long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(took >= 1_400, "closed after " + took + " ms, before inbound-idle-timeout = 1500ms");
    }
    assertThePeerStillGetsItsRoundTrips();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"maximum-inbound-connections", "maximum-inbound-connections-per-host"})
  void connectionsBeyondTheCapAreClosedAtOnceWhileAnEstablishedPeerGoesOn(String key) throws IOException {
    victim(key + " = " + CAP);
    assertThePeerStillGetsItsRoundTrips(); // its connection to the victim is established first
    List<Socket> held = new ArrayList<>();
    try {
      Socket refused = null;
      for (int i = 0; i < CAP + 1 && refused == null; i++) {
        Socket s = connect();
        s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, victim.address().toString()));
        try {
          Nodes.readAck(s.getInputStream());
          held.add(s);
        } catch (EOFException | SocketException closedAtOnce) {
          refused = s;
        }
      }
      assertTrue(refused != null, "all of " + (CAP + 1) + " connections were accepted with " + key + " = " + CAP);
      refused.close();
      assertTrue(held.size() < CAP, "the peer's established connection counts against the cap too");
      assertThePeerStillGetsItsRoundTrips();

      held.remove(0).close(); // a slot frees up: a next connection is accepted
      held.add(connectOnceASlotIsFree());
      assertThePeerStillGetsItsRoundTrips();
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  void aHeartbeatIsAnsweredOnItsConnectionAndTheClaimedOriginIsNeverDialled() throws IOException {
    victim("");
    try (ServerSocket bait = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Socket s = connect()) {
      String origin = "troupe://made-up@127.0.0.1:" + bait.getLocalPort();
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, 0, origin, 99, victim.address().toString()));
      Nodes.readAck(s.getInputStream());
      DataInputStream in = new DataInputStream(s.getInputStream());
      for (int i = 0; i < 3; i++) {
        s.getOutputStream().write(new byte[] {0, 0, 0, 2, 0, 1}); // a heartbeat control frame
        s.getOutputStream().flush();
        assertEquals(2, in.readInt(), "length of the heartbeat response");
        assertEquals(0, in.readByte(), "a control frame");
        assertEquals(2, in.readByte(), "a heartbeat response");
      }
      bait.setSoTimeout(1_000);
      assertThrows(
          SocketTimeoutException.class,
          () -> bait.accept().close(),
          "the node connected to " + origin + ", an address a peer's handshake merely claimed");
    }
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Opens and handshakes connections, a closed one after another (the victim hears of a close a
   * moment later), until one is accepted or {@link Nodes#WAIT} passed.
   */
  private Socket connectOnceASlotIsFree() throws IOException {
    long deadline = System.nanoTime() + Nodes.WAIT.toNanos();
    while (true) {
      Socket s = connect();
      s.getOutputStream().write(Nodes.handshake(Nodes.MAGIC, Nodes.VERSION, victim.address().toString()));
      try {
        Nodes.readAck(s.getInputStream());
        return s;
      } catch (EOFException | SocketException closed) {
        s.close();
        if (System.nanoTime() > deadline) {
          fail("no connection was accepted within " + Nodes.WAIT + " though a slot under the cap was freed");
        }
      }
    }
  }

  private void assertThePeerStillGetsItsRoundTrips() {
    TestKit probe = new TestKit(peer);
    ActorRef echo = Nodes.lookup(peer, victim, "/user/echo");
    for (int i = 0; i < 3; i++) {
      echo.tell("ping" + i, probe.getRef());
      probe.expectMsg(Nodes.WAIT, "echo:ping" + i);
    }
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", victim.address().port().orElseThrow()), 5_000);
    s.setSoTimeout((int) Nodes.WAIT.toMillis());
    return s;
  }

  /** The node closes the connection within {@link Nodes#WAIT}. */
  private static void assertClosed(Socket s) throws IOException {
    try {
      assertEquals(-1, s.getInputStream().read(), "the node sent something instead of closing the connection");
    } catch (SocketException reset) {
      // a reset is a close too
    } catch (SocketTimeoutException e) {
      fail("the node did not close the connection within " + Nodes.WAIT);
    }
  }
}
