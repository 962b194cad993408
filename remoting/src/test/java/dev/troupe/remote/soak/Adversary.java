package dev.troupe.remote.soak;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One kind of hostile input for {@link RemoteSoakTest}, run on a thread of its own against the
 * victim node until a deadline, at most {@code rate} operations a second and at most {@code count}
 * operations in all ({@code troupe.soak.<name>.rate}, {@code troupe.soak.<name>.count}). Every
 * socket it opens has a connect and read timeout, so no operation blocks for long whatever the
 * victim does; what it could not do (the victim refused or closed) is counted, not thrown.
 *
 * <p>The kinds, by {@link #NAMES}:
 *
 * <ul>
 *   <li>{@code random}: random bytes, sometimes behind a plausible frame length;
 *   <li>{@code frames}: a valid handshake, then envelopes with random, oversized, out-of-table and
 *       overflowing string-table refs, random serializer ids and manifests, random payloads;
 *   <li>{@code addresses}: envelopes whose sender paths each name a new node address, on
 *       connections whose handshakes each claim a new origin port (a client restarting);
 *   <li>{@code selection}: {@code /*}{@code /../*}{@code /../…/nope} selections through a Troupe
 *       system's public API;
 *   <li>{@code nested}: one frame of {@code Identify} nested as deep as the frame size allows;
 *   <li>{@code identity}: handshakes with random origins and uids, each followed by a heartbeat
 *       and a LEAVING notice;
 *   <li>{@code spoof}: handshakes claiming the legitimate peer's address with a random uid, and a
 *       LEAVING notice in its name;
 *   <li>{@code churn}: connections opened, given one byte and dropped, and idle connections kept
 *       open up to a cap ({@code troupe.soak.churn.idle}), half of them trickling a frame's bytes
 *       slower than any idle timeout, half idle after a completed handshake;
 *   <li>{@code traced}: user messages behind the trace-context control code, on a handshaken
 *       connection: well-formed ones (a W3C context, one with a {@code tracestate}, one of exactly
 *       the bound's length, one of bytes beyond ASCII or control characters) must each be delivered
 *       (the echo's answer reaches a sink in the harness's attacker system); malformed ones (a
 *       length above the bound, an overflowing or cut varint, a context or envelope cut short) must
 *       each make the victim close that connection.
 * </ul>
 *
 * <p>The kinds stay nested in this one file (past 700 lines): each is a few dozen lines over the
 * same socket, frame and pacing helpers of this class, and the harness picks them by name from
 * {@link #NAMES}; split apart they would each need those helpers made public to the package.
 */
abstract class Adversary implements Runnable {
  static final List<String> NAMES =
      List.of("random", "frames", "addresses", "selection", "nested", "identity", "spoof", "churn", "traced");

  /** Where the victim is, and who the legitimate peer is. */
  record Target(int port, String address, String legitimateAddress, ActorSystem attacker) {}

  final String name;
  final Target target;
  final Random random;
  private final double rate;
  private final long count;

  final AtomicLong ops = new AtomicLong();
  /** Connections (or handshakes) the victim refused, closed or answered nothing on. */
  final AtomicLong refused = new AtomicLong();
  /** Operations that failed on the harness's side (connect failed, write failed). */
  final AtomicLong ioErrors = new AtomicLong();

  private volatile long deadline;
  private volatile RuntimeException failure;

  Adversary(String name, Target target, long seed, double defaultRate) {
    this.name = name;
    this.target = target;
    this.random = new Random(seed ^ name.hashCode());
    this.rate = SoakSettings.doubleProperty("troupe.soak." + name + ".rate", defaultRate);
    this.count = SoakSettings.longProperty("troupe.soak." + name + ".count", Long.MAX_VALUE);
  }

  /**
   * @param name one of {@link #NAMES}
   * @return that adversary
   */
  static Adversary create(String name, Target target, long seed) {
    return switch (name) {
      case "random" -> new RandomBytes(target, seed);
      case "frames" -> new Frames(target, seed);
      case "addresses" -> new Addresses(target, seed);
      case "selection" -> new Selection(target, seed);
      case "nested" -> new Nested(target, seed);
      case "identity" -> new Identities(target, seed);
      case "spoof" -> new Spoof(target, seed);
      case "churn" -> new Churn(target, seed);
      case "traced" -> new Traced(target, seed);
      default -> throw new IllegalArgumentException("unknown adversary '" + name + "', known: " + NAMES);
    };
  }

  /** @param deadlineNanos {@link System#nanoTime()} after which {@link #run} returns */
  final void until(long deadlineNanos) {
    this.deadline = deadlineNanos;
  }

  @Override
  public final void run() {
    long period = (long) (TimeUnit.SECONDS.toNanos(1) / rate);
    long next = System.nanoTime();
    try {
      while (ops.get() < count && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
        long wait = next - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(Math.min(wait, deadline - System.nanoTime()));
          continue;
        }
        next += period;
        try {
          step();
        } catch (IOException e) {
          ioErrors.incrementAndGet();
        }
        ops.incrementAndGet();
      }
    } catch (RuntimeException e) {
      ioErrors.incrementAndGet(); // a bug of the harness's own: it ends this adversary, and shows in the summary
      failure = e;
    }
  }

  /** One operation. */
  abstract void step() throws IOException;

  /**
   * Releases what the adversary holds (its idle connections, its listener). Called once after the
   * run's last check, so that what it held still counts when a new peer tries the victim.
   */
  void close() {}

  /** @return what this adversary saw that the victim must never do, or null */
  String violation() {
    return null;
  }

  /** @return the exception that ended this adversary early, or null */
  RuntimeException failure() {
    return failure;
  }

  /** @return what else the summary should say of this adversary, or "" */
  String detail() {
    return "";
  }

  final String path(String path) {
    return target.address() + path;
  }

  final String randomAscii(int max) {
    int n = random.nextInt(max + 1);
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      b.append((char) (' ' + random.nextInt(95)));
    }
    return b.toString();
  }

  final byte[] randomBytes(int max) {
    byte[] b = new byte[random.nextInt(max + 1)];
    random.nextBytes(b);
    return b;
  }

  /** Waits (bounded by the socket's read timeout) until the victim closes {@code s}; counts it if it does not. */
  final void awaitClose(Socket s) {
    try {
      InputStream in = s.getInputStream();
      byte[] sink = new byte[256];
      while (in.read(sink) >= 0) {
        // whatever it answers
      }
    } catch (SocketTimeoutException e) {
      refused.incrementAndGet(); // it kept the connection open longer than the read timeout
    } catch (IOException e) {
      // reset: closed
    }
  }

  /** A persistent connection of an adversary, handshaken once, re-opened when the victim drops it. */
  final class Link {
    private Socket socket;
    private final int lane;
    private final boolean newOriginEachTime;
    private int opened;

    Link(int lane, boolean newOriginEachTime) {
      this.lane = lane;
      this.newOriginEachTime = newOriginEachTime;
    }

    /** Sends {@code frame}, connecting (and handshaking) first if needed. */
    void send(byte[] frame) throws IOException {
      if (socket == null) {
        Socket s = RawFrames.connect(target.port(), 2_000);
        String origin =
            "troupe://" + name + "@127.0.0.1:" + (newOriginEachTime ? 20_000 + opened % 40_000 : 9);
        opened++;
        if (!RawFrames.handshakeAccepted(s, RawFrames.handshake(lane, origin, 1_000 + opened, target.address()))) {
          refused.incrementAndGet();
          s.close();
          return;
        }
        socket = s;
      }
      try {
        OutputStream out = socket.getOutputStream();
        out.write(frame);
        out.flush();
      } catch (IOException e) {
        drop();
        throw e;
      }
    }

    /**
     * Waits, at most {@code maxNanos}, until the victim closes the connection, reading (and
     * ignoring) what it sends meanwhile; the connection is dropped either way.
     *
     * @return whether the victim closed it in time (true also when there was no connection)
     */
    boolean closedByVictimWithin(long maxNanos) {
      if (socket == null) {
        return true;
      }
      long end = System.nanoTime() + maxNanos;
      try {
        InputStream in = socket.getInputStream();
        byte[] sink = new byte[256];
        while (true) {
          try {
            if (in.read(sink) < 0) {
              return true;
            }
          } catch (SocketTimeoutException stillOpen) {
            if (System.nanoTime() - end >= 0) {
              return false;
            }
          }
        }
      } catch (IOException reset) {
        return true;
      } finally {
        drop();
      }
    }

    /** Waits until the victim closes the connection or the read timeout passes. */
    void awaitClose() {
      if (socket != null) {
        Adversary.this.awaitClose(socket);
      }
    }

    /** Closes the connection; the next {@link #send} opens another. */
    void drop() {
      if (socket != null) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing
        }
        socket = null;
      }
    }

    int opened() {
      return opened;
    }

    /** @return whether a connection is open (its string table holds what earlier frames added) */
    boolean connected() {
      return socket != null;
    }
  }

  // ------------------------------------------------------------------ the kinds

  /** Random bytes, half of them behind a plausible frame length. */
  static final class RandomBytes extends Adversary {
    RandomBytes(Target target, long seed) {
      super("random", target, seed, 20);
    }

    @Override
    void step() throws IOException {
      try (Socket s = RawFrames.connect(target.port(), 1_000)) {
        byte[] noise = randomBytes(4096);
        if (random.nextBoolean() && noise.length > 4) {
          int length = random.nextInt(noise.length);
          noise[0] = 0;
          noise[1] = 0;
          noise[2] = (byte) (length >>> 8);
          noise[3] = (byte) length;
        }
        s.getOutputStream().write(noise);
        awaitClose(s);
      }
    }
  }

  /** A valid handshake, then envelopes whose every field is a guess, one in five behind a guessed trace context. */
  static final class Frames extends Adversary {
    private final Link link = new Link(RawFrames.LANE_ORDINARY, false);

    Frames(Target target, long seed) {
      super("frames", target, seed, 100);
    }

    @Override
    void step() throws IOException {
      RawFrames.Body b = new RawFrames.Body();
      if (random.nextInt(5) == 0) { // a trace context in front: of any length, within the bound or not
        b.writeByte(RawFrames.REF_NONE).writeByte(RawFrames.TRACED);
        int n = random.nextBoolean() ? random.nextInt(RawFrames.TRACE_CONTEXT_MAX_BYTES + 1) : random.nextInt();
        b.writeVarInt(n).writeBytes(randomBytes(Math.min(Math.abs(n), 2 * RawFrames.TRACE_CONTEXT_MAX_BYTES)));
      }
      ref(b, true);
      ref(b, false);
      b.writeVarInt(switch (random.nextInt(4)) {
        case 0 -> RawFrames.zigZag(random.nextInt());
        case 1 -> RawFrames.zigZag(random.nextInt(10));
        case 2 -> RawFrames.zigZag(-random.nextInt(10));
        default -> 0xFFFFFFFF;
      });
      ref(b, false);
      b.writeBytes(randomBytes(512));
      link.send(b.frame());
      if (random.nextInt(50) == 0) {
        link.drop(); // start again with an empty table
      }
    }

    /** A guessed ref: out of the table, overflowing, oversized, or a plausible string. */
    private void ref(RawFrames.Body b, boolean recipient) {
      switch (random.nextInt(recipient ? 7 : 8)) {
        case 0 -> b.writeVarInt(RawFrames.REF_FIRST_ENTRY + random.nextInt(5000));
        case 1 -> b.writeVarInt(Integer.MAX_VALUE);
        case 2 -> b.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01});
        case 3 -> b.writeVarInt(RawFrames.REF_NEW).writeVarInt(1 << 30); // a string longer than the frame
        case 4 -> b.writeRef(random.nextBoolean() ? RawFrames.REF_NEW : RawFrames.REF_LITERAL, path("/user/echo"));
        case 5 -> b.writeRef(RawFrames.REF_NEW, path("/user/" + randomAscii(40)));
        case 6 -> b.writeRef(RawFrames.REF_LITERAL, randomAscii(200));
        default -> b.writeVarInt(RawFrames.REF_NONE);
      }
    }

    @Override
    void close() {
      link.drop();
    }
  }

  /** Envelopes whose senders each name a node never seen, on connections from ever new origins. */
  static final class Addresses extends Adversary {
    private final Link link = new Link(RawFrames.LANE_ORDINARY, true);
    private long named;

    Addresses(Target target, long seed) {
      super("addresses", target, seed, 500);
    }

    @Override
    void step() throws IOException {
      named++;
      String sender =
          "troupe://n" + named + "@127.0.0." + (1 + (named >> 16) % 250) + ":" + (1 + named % 65_000) + "/user/x";
      RawFrames.Body b = new RawFrames.Body();
      if (link.connected()) {
        b.writeVarInt(RawFrames.REF_FIRST_ENTRY); // entry 0: the recipient, as the connection's first frame named it
      } else {
        b.writeRef(RawFrames.REF_NEW, path("/user/watched")); // ignores what it gets: no reply, no dial
      }
      byte[] frame =
          b.writeRef(RawFrames.REF_LITERAL, sender)
              .writeVarInt(RawFrames.zigZag(2)) // a String
              .writeVarInt(RawFrames.REF_NONE)
              .writeBytes("hello".getBytes(StandardCharsets.UTF_8))
              .frame();
      link.send(frame);
      if (named % 1_000 == 0) {
        link.drop(); // a client restarting on a new port
      }
    }

    @Override
    void close() {
      link.drop();
    }

    @Override
    String detail() {
      return named + " addresses named, " + link.opened() + " origins";
    }
  }

  /** Selections whose walk doubles with each {@code *}{@code /..} pair, sent with the public API. */
  static final class Selection extends Adversary {
    private final int depth = (int) SoakSettings.longProperty("troupe.soak.selection.depth", 24);

    Selection(Target target, long seed) {
      super("selection", target, seed, 0.2);
    }

    @Override
    void step() {
      StringBuilder p = new StringBuilder();
      for (int i = 0; i < depth; i++) {
        p.append("/*/..");
      }
      p.append("/nope");
      target.attacker().actorSelection(path(p.toString())).tell("who is there?", ActorRef.noSender());
    }

    @Override
    String detail() {
      return "depth " + depth;
    }
  }

  /** One frame of {@code Identify} nested as deep as the victim's frame size allows, on a new connection each time. */
  static final class Nested extends Adversary {
    private byte[] frame;

    Nested(Target target, long seed) {
      super("nested", target, seed, 0.5);
    }

    @Override
    void step() throws IOException {
      if (frame == null) {
        int maxFrame = (int) SoakSettings.longProperty("troupe.soak.nested.bytes", 256 * 1024 - 256);
        int depth = (int) SoakSettings.longProperty("troupe.soak.nested.depth", 100_000);
        frame = RawFrames.firstEnvelope(
            path("/user/echo"), RawFrames.MESSAGES_SERIALIZER, RawFrames.IDENTIFY_MANIFEST, RawFrames.nestedIdentify(depth, maxFrame));
      }
      Link link = new Link(RawFrames.LANE_ORDINARY, false);
      try {
        link.send(frame);
        link.awaitClose(); // the victim reads the frame before the connection goes
      } finally {
        link.drop();
      }
    }

    @Override
    String detail() {
      return frame == null ? "" : frame.length + "-byte frames";
    }
  }

  /**
   * Handshakes naming random nodes, each followed by a heartbeat and a LEAVING notice. Half of them
   * name a port this adversary listens on: the victim must never connect there, since only a
   * handshake named it.
   */
  static final class Identities extends Adversary {
    private final ServerSocket listener;
    private final AtomicLong dialled = new AtomicLong();

    Identities(Target target, long seed) {
      super("identity", target, seed, 5);
      try {
        listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Thread acceptor = new Thread(this::accept, "soak-adversary-identity-listener");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void accept() {
      while (!listener.isClosed()) {
        try (Socket dialledBack = listener.accept()) {
          dialled.incrementAndGet();
        } catch (IOException closed) {
          // the listener closed, or the victim gave up
        }
      }
    }

    @Override
    void step() throws IOException {
      int port = random.nextBoolean() ? listener.getLocalPort() : 1 + random.nextInt(1023);
      claim(this, "troupe://node" + random.nextInt(1_000_000) + "@127.0.0.1:" + port, random.nextLong());
    }

    @Override
    void close() {
      try {
        listener.close();
      } catch (IOException ignored) {
        // closing
      }
    }

    @Override
    String detail() {
      return "the victim dialled back " + dialled.get() + " times";
    }

    @Override
    String violation() {
      return dialled.get() == 0
          ? null
          : "the victim connected " + dialled.get() + " times to an address that only a handshake named";
    }
  }

  /** Handshakes claiming to be the legitimate peer, restarted, and leaving. */
  static final class Spoof extends Adversary {
    Spoof(Target target, long seed) {
      super("spoof", target, seed, 0.2);
    }

    @Override
    void step() throws IOException {
      claim(this, target.legitimateAddress(), random.nextLong());
    }
  }

  /** A control-lane handshake claiming {@code origin} and {@code uid}, then a heartbeat and a LEAVING notice. */
  static void claim(Adversary a, String origin, long uid) throws IOException {
    try (Socket s = RawFrames.connect(a.target.port(), 2_000)) {
      if (!RawFrames.handshakeAccepted(s, RawFrames.handshake(RawFrames.LANE_CONTROL, origin, uid, a.target.address()))) {
        a.refused.incrementAndGet();
        return;
      }
      OutputStream out = s.getOutputStream();
      out.write(RawFrames.control(RawFrames.HEARTBEAT));
      out.write(RawFrames.control(RawFrames.LEAVING));
      out.flush();
    }
  }

  /** Connections dropped after one byte, and idle ones kept open up to a cap. */
  static final class Churn extends Adversary {
    private final int idleCap = (int) SoakSettings.longProperty("troupe.soak.churn.idle", 240);
    private final List<Socket> trickling = new ArrayList<>();
    private final List<Socket> idle = new ArrayList<>();
    private long lastTrickle = System.nanoTime();
    private long closedByVictim;
    private int peak;

    Churn(Target target, long seed) {
      super("churn", target, seed, 15);
    }

    @Override
    void step() throws IOException {
      try (Socket s = RawFrames.connect(target.port(), 1_000)) {
        s.getOutputStream().write(random.nextInt(256)); // and dropped
      }
      if (trickling.size() + idle.size() < idleCap) {
        Socket s = RawFrames.connect(target.port(), 2_000);
        if (random.nextBoolean()) {
          s.getOutputStream().write(new byte[] {0, 1, 0, 0}); // a 64 KiB frame whose bytes come one at a time
          trickling.add(s);
        } else if (RawFrames.handshakeAccepted(
            s, RawFrames.handshake(RawFrames.LANE_ORDINARY, "troupe://idler@127.0.0.1:" + (1 + idle.size() % 50), 7, target.address()))) {
          idle.add(s);
        } else {
          refused.incrementAndGet();
          s.close();
        }
      }
      peak = Math.max(peak, trickling.size() + idle.size());
      if (System.nanoTime() - lastTrickle > TimeUnit.MILLISECONDS.toNanos(1_500)) {
        lastTrickle = System.nanoTime();
        trickle();
      }
    }

    /** One more byte on each trickling connection; those the victim closed are forgotten. */
    private void trickle() {
      for (Iterator<Socket> it = trickling.iterator(); it.hasNext(); ) {
        Socket s = it.next();
        try {
          s.getOutputStream().write(0);
        } catch (IOException closed) {
          closedByVictim++;
          closeQuietly(s);
          it.remove();
        }
      }
      for (Iterator<Socket> it = idle.iterator(); it.hasNext(); ) {
        Socket s = it.next();
        try {
          s.setSoTimeout(1);
          if (s.getInputStream().read() < 0) {
            closedByVictim++;
            closeQuietly(s);
            it.remove();
          }
        } catch (SocketTimeoutException stillOpen) {
          // open and silent
        } catch (IOException closed) {
          closedByVictim++;
          closeQuietly(s);
          it.remove();
        }
      }
    }

    @Override
    void close() {
      trickling.forEach(Churn::closeQuietly);
      idle.forEach(Churn::closeQuietly);
    }

    private static void closeQuietly(Socket s) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }

    @Override
    String detail() {
      return String.format(Locale.ROOT, "idle peak %d (cap %d), %d closed by the victim", peak, idleCap, closedByVictim);
    }
  }

  /**
   * User messages behind the trace-context control code ({@code 0 | 6 | varint n | n bytes |
   * envelope}) on one handshaken ordinary-lane connection. Each well-formed one (its length within
   * the bound, whatever its bytes) is a string for {@code /user/echo} from a sink actor in the
   * attacker system, and must be delivered: the sink must hear every echo. Each malformed one (a
   * length above the bound, an overflowing or negative length, a varint, context or envelope cut
   * short) must make the victim close the connection, within {@link #CLOSE_WITHIN_NANOS}; the next
   * one goes on a new connection. What the victim must not do: keep a broken connection open, or
   * lose a well-formed message sent before a malformed one on the same connection.
   */
  static final class Traced extends Adversary {
    /** How long the victim may take to close a connection that broke the protocol (a loaded machine is slow). */
    static final long CLOSE_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How long after the attack the echoes of the last well-formed messages may take to arrive. */
    static final long ECHOES_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final String HEX = "0123456789abcdef";

    private final Link link = new Link(RawFrames.LANE_ORDINARY, false);
    private final AtomicLong echoes = new AtomicLong();
    private final String sinkPath;
    private long delivered;
    private long unusual;
    private long malformed;
    private long closed;
    private long keptOpen;
    private String outcome;

    Traced(Target target, long seed) {
      super("traced", target, seed, 20);
      ActorRef sink = target.attacker().actorOf(Props.create(Sink.class, () -> new Sink(echoes)), "traced-sink");
      sinkPath = target.attacker().address() + sink.path().toStringWithoutAddress();
    }

    /** Counts what it receives: the victim's echoes of the well-formed traced messages. */
    static final class Sink extends AbstractActor {
      private final AtomicLong received;

      Sink(AtomicLong received) {
        this.received = received;
      }

      @Override
      public Receive createReceive() {
        return receiveBuilder().matchAny(m -> received.incrementAndGet()).build();
      }
    }

    @Override
    void step() throws IOException {
      int kind = random.nextInt(10);
      if (kind < 6) {
        byte[] context = switch (kind) {
          case 0, 1 -> ascii(traceparent());
          case 2 -> ascii(traceparent() + "\nvendor=" + randomAscii(40).replace(',', '_'));
          case 3 -> ascii(garbage(RawFrames.TRACE_CONTEXT_MAX_BYTES)); // exactly the bound, no W3C value
          case 4 -> nonAscii(1 + random.nextInt(RawFrames.TRACE_CONTEXT_MAX_BYTES));
          default -> new byte[0];
        };
        if (kind >= 3) {
          unusual++;
        }
        link.send(RawFrames.traced(context, context.length,
            RawFrames.stringEnvelope(path("/user/echo"), sinkPath, "traced " + ops.get())));
        if (link.connected()) {
          delivered++; // written on an open connection: the echo must come
        }
        return;
      }
      byte[] frame = switch (random.nextInt(7)) {
        case 0 -> { // a length above the bound, the bytes all there
          int n = RawFrames.TRACE_CONTEXT_MAX_BYTES + 1 + random.nextInt(4096);
          yield RawFrames.traced(ascii(garbage(n)), n, envelope());
        }
        case 1 -> RawFrames.traced(new byte[0], Integer.MAX_VALUE, envelope());
        case 2 -> RawFrames.traced(new byte[0], -1, envelope()); // five bytes, above Integer.MAX_VALUE
        case 3 -> { // the context cut short: the length says more than the frame holds
          int n = 1 + random.nextInt(RawFrames.TRACE_CONTEXT_MAX_BYTES);
          yield RawFrames.traced(ascii(garbage(random.nextInt(n))), n, new byte[0]);
        }
        case 4 -> new RawFrames.Body().writeByte(RawFrames.REF_NONE).writeByte(RawFrames.TRACED).frame(); // no length at all
        case 5 -> new RawFrames.Body().writeByte(RawFrames.REF_NONE).writeByte(RawFrames.TRACED).writeByte(0x80).frame(); // a varint cut
        default -> { // a valid context, then an envelope cut after its recipient
          byte[] context = ascii(traceparent());
          yield RawFrames.traced(context, context.length, new RawFrames.Body().writeRef(RawFrames.REF_LITERAL, path("/user/echo")).bytes());
        }
      };
      link.send(frame);
      if (!link.connected()) {
        return; // the handshake was refused: counted there
      }
      malformed++;
      if (link.closedByVictimWithin(CLOSE_WITHIN_NANOS)) {
        closed++;
      } else {
        keptOpen++;
      }
    }

    private byte[] envelope() {
      return RawFrames.stringEnvelope(path("/user/echo"), sinkPath, "never delivered");
    }

    /** @return a W3C traceparent of random ids, sampled or not */
    private String traceparent() {
      return "00-" + hex(32) + "-" + hex(16) + "-0" + random.nextInt(2);
    }

    private String hex(int n) {
      StringBuilder b = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        b.append(HEX.charAt(random.nextInt(16)));
      }
      return b.toString();
    }

    /** @return exactly {@code n} printable ASCII characters, no W3C value */
    private String garbage(int n) {
      StringBuilder b = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        b.append((char) (' ' + random.nextInt(95)));
      }
      return b.toString();
    }

    /** @return {@code n} bytes, each beyond ASCII or a control character */
    private byte[] nonAscii(int n) {
      byte[] b = new byte[n];
      for (int i = 0; i < n; i++) {
        b[i] = (byte) (random.nextBoolean() ? 0x80 + random.nextInt(128) : random.nextInt(32));
      }
      return b;
    }

    private static byte[] ascii(String s) {
      return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    void close() {
      link.drop();
    }

    /** Waits (bounded) for the echoes of every well-formed message, once; later calls reuse the answer. */
    private synchronized String outcome() {
      if (outcome == null) {
        long end = System.nanoTime() + ECHOES_WITHIN_NANOS;
        while (echoes.get() < delivered && System.nanoTime() - end < 0) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        outcome = echoes.get() >= delivered ? "" : (delivered - echoes.get()) + " of " + delivered + " well-formed traced messages never echoed";
      }
      return outcome;
    }

    @Override
    String detail() {
      String lost = outcome();
      return String.format(Locale.ROOT, "%d well-formed (%d odd bytes or lengths), %d echoed; %d malformed, %d closed%s",
          delivered, unusual, echoes.get(), malformed, closed, lost.isEmpty() ? "" : ": " + lost);
    }

    @Override
    String violation() {
      String lost = outcome();
      if (keptOpen > 0) {
        return keptOpen + " of " + malformed + " connections that sent a malformed trace context still open after "
            + TimeUnit.NANOSECONDS.toSeconds(CLOSE_WITHIN_NANOS) + " s" + (lost.isEmpty() ? "" : "; " + lost);
      }
      return lost.isEmpty() ? null : lost;
    }
  }
}
