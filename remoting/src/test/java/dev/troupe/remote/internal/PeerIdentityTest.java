package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What an accepted connection may claim about the peer it speaks for, tested with hand-written
 * frames on raw sockets ({@link Wire}), as an attacker on the network would send them without
 * TLS: a restart claim (a new uid for a live peer's address) is not believed until this node's own
 * connection to that address confirms it, while a real restart still is; a second control
 * connection cannot say the peer leaves nor number system messages ahead of the real ones; and
 * made-up uids do not grow what a node remembers of incarnations past its bound.
 */
class PeerIdentityTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  /** How long a check waits before it concludes that nothing (a false Terminated) came. */
  private static final Duration QUIET = Duration.ofMillis(500);
  private static final String BASE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n"
          + "troupe.remote.advanced.reconnect-min-backoff = 50ms\n"
          + "troupe.remote.advanced.reconnect-max-backoff = 200ms\n";

  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(BASE);

  private final List<ActorSystem> named = new ArrayList<>();

  @AfterEach
  void shutDownNamed() {
    named.forEach(s -> {
      if (!s.getWhenTerminated().toCompletableFuture().isDone()) {
        TestKit.shutdownActorSystem(s);
      }
    });
  }

  // ------------------------------------------------------------------ restart claims

  @Test
  void aSpoofedRestartClaimForALivePeerTerminatesNoWatchAndLaterWatchesStillWork() throws IOException {
    ActorSystem victim = troupe.system();
    ActorSystem peer = troupe.createSystem("");
    List<ActorRef> watched = actorsOn(peer, victim, "w", 21);
    TestKit probe = new TestKit(victim);
    watched.subList(0, 20).forEach(probe::watch);
    Association toPeer = provider(victim).association(peer.address());
    await(victim, "the 20 watches acknowledged", () -> toPeer.outbox().acknowledged() == 20 && toPeer.outbox().size() == 0);
    long peerUid = provider(peer).uid();

    List<Lane> acknowledged = new ArrayList<>();
    for (Lane lane : Lane.values()) {
      try (RawPeer spoof = new RawPeer(victim)) {
        spoof.handshake(lane, peer.address(), new Random().nextLong() | 1, victim.address());
        if (spoof.ack().isPresent()) {
          acknowledged.add(lane);
        }
      }
    }

    probe.expectNoMessage(QUIET); // no Terminated(addressTerminated) for any of the 20
    assertEquals(List.of(), acknowledged, "restart claims acknowledged (telling the victim's uid) on these lanes");
    assertEquals(peerUid, toPeer.uid(), "the victim still speaks to the peer's real incarnation");
    probe.watch(watched.get(20)); // a later watch is numbered on, not lost
    await(victim, "the later watch acknowledged", () -> toPeer.outbox().acknowledged() == 21 && toPeer.outbox().size() == 0);
    stopAndExpectConfirmedTerminated(peer, probe, List.of(watched.get(0), watched.get(20)));
  }

  @Test
  void aRealRestartWhoseNewIncarnationDialsFirstIsConfirmedAndTheWatchersHearOnce() {
    ActorSystem victim = troupe.system();
    ActorSystem first = named("restarting", 0);
    int port = first.address().port().orElseThrow();
    ActorRef old = actorsOn(first, victim, "r", 1).get(0);
    TestKit probe = new TestKit(victim);
    probe.watch(old);
    Association toPeer = provider(victim).association(first.address());
    await(victim, "the watch acknowledged", () -> toPeer.outbox().acknowledged() == 1 && toPeer.outbox().size() == 0);
    long oldUid = provider(first).uid();

    TestKit.shutdownActorSystem(first);
    Terminated t = probe.expectTerminated(WAIT, old);
    assertTrue(t.existenceConfirmed() || t.addressTerminated(), t.toString());
    ActorSystem second = named("restarting", port);
    victim.actorOf(Props.create(NodeLossTest.Idle.class), "here");

    // the new incarnation speaks first: its claim is checked by the victim's own connection
    ActorRef here = second.actorSelection(victim.address() + "/user/here").resolveOne(WAIT).toCompletableFuture().join();
    assertEquals(victim.address(), here.path().address());
    await(victim, "the victim follows the new incarnation", () -> toPeer.uid() == provider(second).uid());
    assertTrue(toPeer.uid() != oldUid);
    probe.expectNoMessage(QUIET); // the old incarnation's watchers heard once
    ActorRef fresh = actorsOn(second, victim, "s", 1).get(0);
    long acked = toPeer.outbox().acknowledged();
    probe.watch(fresh);
    await(victim, "the watch of the new incarnation's actor acknowledged", () -> toPeer.outbox().acknowledged() > acked);
    stopAndExpectConfirmedTerminated(second, probe, List.of(fresh));
  }

  // ------------------------------------------------------------------ a second connection

  @Test
  void aLeavingNoticeFromASecondConnectionIsIgnored() throws IOException {
    ActorSystem victim = troupe.system();
    ActorSystem peer = troupe.createSystem("");
    Pair pair = watchingEachOther(victim, peer, 2);
    long peerUid = provider(peer).uid(); // without TLS anyone reads it: every acknowledgement tells it

    try (RawPeer second = new RawPeer(victim)) {
      second.handshake(Lane.CONTROL, peer.address(), peerUid, victim.address());
      if (second.ack().isPresent()) { // refused: the peer's own control connection is open
        second.control(Wire.LEAVING);
      }
    }
    try (RawPeer ordinary = new RawPeer(victim)) {
      ordinary.handshake(Lane.ORDINARY, peer.address(), peerUid, victim.address());
      assertTrue(ordinary.ack().isPresent(), "an ordinary-lane connection of the same incarnation is accepted");
      ordinary.control(Wire.LEAVING);
    }

    pair.probe().expectNoMessage(QUIET); // the peer did not leave
    assertTrue(provider(victim).association(peer.address()).associated(), "still associated with the peer");
    stopAndExpectConfirmedTerminated(peer, pair.probe(), List.of(pair.watched().get(1)));
  }

  @Test
  void forgedSequenceNumbersOnASecondControlConnectionDoNotSwallowARealDeathNotice() throws IOException {
    ActorSystem victim =
        troupe.createSystem("troupe.remote.untrusted-mode = on\ntroupe.remote.trusted-selection-paths = [\"/user/anchor\"]\n");
    ActorSystem peer = troupe.createSystem("");
    Pair pair = watchingEachOther(victim, peer, 1); // the peer's system message 1 (its watch) is delivered
    long peerUid = provider(peer).uid();
    String recipient = victim.address() + "/user/anchor";

    try (RawPeer second = new RawPeer(victim)) {
      second.handshake(Lane.CONTROL, peer.address(), peerUid, victim.address());
      if (second.ack().isPresent()) {
        for (long seq = 2; seq <= 101; seq++) { // numbered ahead of the peer's next real ones
          second.system(seq, recipient);
        }
      }
    }

    stopAndExpectConfirmedTerminated(peer, pair.probe(), List.of(pair.watched().get(0)));
  }

  // ------------------------------------------------------------------ bounded memory

  @Test
  void anIncarnationNeverDialledIsReplacedOnlyOnceNoneOfItsConnectionsIsOpen() throws IOException {
    ActorSystem victim = troupe.system();
    Address ghost = Address.parse("troupe://ghost@127.0.0.1:1"); // never dialled: its incarnations are claims only
    Association toGhost = provider(victim).association(ghost);

    try (RawPeer first = new RawPeer(victim)) {
      first.handshake(Lane.ORDINARY, ghost, 1, victim.address());
      assertTrue(first.ack().isPresent(), "the first uid heard for an address is taken");
      try (RawPeer second = new RawPeer(victim)) {
        second.handshake(Lane.ORDINARY, ghost, 2, victim.address());
        assertFalse(second.ack().isPresent(), "a new uid while a connection of the current one is open");
      }
    }
    await(victim, "the first connection closed", () -> !toGhost.associated());
    try (RawPeer third = new RawPeer(victim)) {
      third.handshake(Lane.ORDINARY, ghost, 2, victim.address());
      assertTrue(third.ack().isPresent(), "the new uid once no connection of the old one is open");
    }
    assertEquals(2, toGhost.uid());
    assertFalse(toGhost.confirmed());
  }

  @Test
  void madeUpUidsNeitherGrowTheRememberedIncarnationsPastTheBoundNorMakeTheNodeDial() throws IOException {
    ActorSystem victim = troupe.system();
    victim.actorOf(Props.create(NodeLossTest.Idle.class), "anchor");
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      // an address where something listens, that the victim has never dialled
      Address ghost = Address.parse("troupe://ghost@127.0.0.1:" + listener.getLocalPort());
      Association toGhost = provider(victim).association(ghost);
      int accepted = claimManyUids(victim, ghost, toGhost);

      assertTrue(accepted > RecentUids.CAPACITY, "enough claims were believed to reach the bound: " + accepted);
      assertTrue(toGhost.retainedUids() <= RecentUids.CAPACITY, "replaced and quarantined uids kept: " + toGhost.retainedUids());
      assertTrue(
          toGhost.inbound().retiredCount() <= RecentUids.CAPACITY,
          "retired sequences kept: " + toGhost.inbound().retiredCount());
      listener.setSoTimeout(200);
      try (Socket dialled = listener.accept()) {
        fail("the victim dialled the claimed address from " + dialled.getRemoteSocketAddress());
      } catch (SocketTimeoutException expected) {
        // nobody connected
      }
    }
  }

  /** Claims {@code 2 * CAPACITY + 10} incarnations of {@code ghost}, one connection each, one after the other. */
  private static int claimManyUids(ActorSystem victim, Address ghost, Association toGhost) throws IOException {
    int claims = RecentUids.CAPACITY * 2 + 10;
    int accepted = 0;
    for (long uid = 1; uid <= claims; uid++) {
      try (RawPeer spoof = new RawPeer(victim)) {
        spoof.handshake(Lane.CONTROL, ghost, uid, victim.address());
        if (spoof.ack().isPresent()) {
          accepted++;
          spoof.system(1, victim.address() + "/user/anchor"); // starts a sequence for this uid
        }
      }
      await(victim, "the connection of uid " + uid + " closed", () -> !toGhost.associated());
    }
    return accepted;
  }

  // ------------------------------------------------------------------ helpers

  /** The victim's probe watches {@code n} actors on the peer, and the peer watches one on the victim; all acknowledged. */
  private record Pair(TestKit probe, List<ActorRef> watched) {}

  private static Pair watchingEachOther(ActorSystem victim, ActorSystem peer, int n) {
    List<ActorRef> watched = actorsOn(peer, victim, "w", n);
    TestKit probe = new TestKit(victim);
    watched.forEach(probe::watch);
    Association toPeer = provider(victim).association(peer.address());
    await(victim, "the watches acknowledged", () -> toPeer.outbox().acknowledged() == n && toPeer.outbox().size() == 0);
    // the peer's own control connection to the victim: it watches an actor there
    ActorRef anchor = actorsOn(victim, peer, "anchor", 1).get(0);
    new TestKit(peer).watch(anchor);
    Association toVictim = provider(peer).association(victim.address());
    await(peer, "the peer's watch acknowledged", () -> toVictim.outbox().acknowledged() == 1 && toVictim.outbox().size() == 0);
    return new Pair(probe, watched);
  }

  /** A system of the given name and port, shut down after the test. */
  private ActorSystem named(String name, int port) {
    ActorSystem s =
        ActorSystem.create(
            name,
            ConfigFactory.parseString(BASE + "troupe.remote.canonical.port = " + port + "\n").withFallback(ConfigFactory.load()));
    named.add(s);
    return s;
  }

  private static RemoteActorRefProvider provider(ActorSystem s) {
    return (RemoteActorRefProvider) ((RuntimeSystem) s).provider();
  }

  private static void await(ActorSystem s, String what, BooleanSupplier condition) {
    new TestKit(s).awaitCond(WAIT, Duration.ofMillis(10), "not within " + WAIT + ": " + what, condition::getAsBoolean);
  }

  /** Starts actors {@code prefix0..} on {@code on} (or just names them, for {@code anchor}) and looks each up from {@code from}. */
  private static List<ActorRef> actorsOn(ActorSystem on, ActorSystem from, String prefix, int n) {
    List<ActorRef> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = n == 1 && prefix.equals("anchor") ? prefix : prefix + i;
      on.actorOf(Props.create(NodeLossTest.Idle.class), name);
      out.add(from.actorSelection(on.address() + "/user/" + name).resolveOne(WAIT).toCompletableFuture().join());
    }
    return out;
  }

  /** Stops {@code refs} on {@code node} and expects one confirmed {@code Terminated} each, and nothing more. */
  private static void stopAndExpectConfirmedTerminated(ActorSystem node, TestKit probe, List<ActorRef> refs) {
    for (ActorRef r : refs) {
      node.actorSelection(r.path().toStringWithoutAddress()).tell(PoisonPill.getInstance(), ActorRef.noSender());
    }
    for (ActorRef r : refs) {
      Terminated t = probe.expectMsgClass(WAIT, Terminated.class);
      assertTrue(refs.contains(t.actor()), "a Terminated for " + t.actor() + ", not one of " + refs);
      assertTrue(t.existenceConfirmed(), "its own death notice, not a node declared gone: " + t);
    }
    probe.expectNoMessage(Duration.ofMillis(200));
  }

  /**
   * A peer written by hand on a raw socket: frames as {@link Wire} describes them, each a 4-byte
   * length and the body, the bodies made with Wire's own encoders and an {@link OutboundTable}.
   */
  private static final class RawPeer implements AutoCloseable {
    private final Socket socket = new Socket();
    private final DataInputStream in;
    private final OutboundTable table = new OutboundTable();

    RawPeer(ActorSystem node) throws IOException {
      socket.connect(new InetSocketAddress("127.0.0.1", node.address().port().orElseThrow()), 5_000);
      socket.setSoTimeout((int) WAIT.toMillis());
      in = new DataInputStream(socket.getInputStream());
    }

    void handshake(Lane lane, Address origin, long uid, Address target) throws IOException {
      send(Wire.encodeHandshake(ByteBufAllocator.DEFAULT, new Wire.Handshake(lane, origin, uid, target)));
    }

    /**
     * @return the node's uid from its acknowledgement, or empty when it refused the handshake (a
     *     refusal frame, then the close) or closed the connection instead
     */
    OptionalLong ack() throws IOException {
      try {
        byte[] body = new byte[in.readInt()];
        in.readFully(body);
        ByteBuf frame = Unpooled.wrappedBuffer(body);
        return Wire.decodeRefusal(frame) != null ? OptionalLong.empty() : OptionalLong.of(Wire.decodeAck(frame));
      } catch (EOFException | SocketException closed) {
        return OptionalLong.empty();
      } catch (SocketTimeoutException e) {
        throw new AssertionError("the node neither acknowledged nor closed within " + WAIT, e);
      }
    }

    /** A control frame of {@code kind}. */
    void control(int kind) throws IOException {
      send(Wire.encodeControl(ByteBufAllocator.DEFAULT, kind));
    }

    /** A sequenced system message numbered {@code seq} to {@code recipient}: an envelope whose payload no serializer reads. */
    void system(long seq, String recipient) throws IOException {
      ByteBuf b = Unpooled.buffer();
      b.writeByte(Wire.REF_NONE);
      b.writeByte(Wire.SYSTEM);
      Wire.writeVarLong(b, seq);
      table.write(b, recipient, recipient);
      b.writeByte(Wire.REF_NONE); // no sender
      Wire.writeVarInt(b, Wire.zigZag(6)); // the runtime's system messages
      b.writeByte(Wire.REF_NONE); // no manifest
      b.writeBytes(new byte[] {1, 2, 3});
      send(b);
    }

    private void send(ByteBuf body) throws IOException {
      try {
        byte[] bytes = new byte[4 + body.readableBytes()];
        Unpooled.wrappedBuffer(bytes).setInt(0, body.readableBytes()).setBytes(4, body, body.readerIndex(), body.readableBytes());
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
      } finally {
        body.release();
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
