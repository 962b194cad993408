package dev.troupe.bench.remote;

import dev.troupe.actor.ActorSystem;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.RemoteMessages;
import dev.troupe.bench.common.RemoteMessages.Ping;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.serialization.Serialization;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.HdrHistogram.Histogram;

/**
 * The raw-socket baseline of {@code RemotePingPong} ({@code impl=raw} and {@code impl=raw-batched}):
 * no actors, no serialization, only what the machine's loopback TCP and two blocking threads per
 * pair can do with frames of the same size as Troupe's.
 *
 * <p>Each pair is one TCP connection ({@code TCP_NODELAY}) between a pinger thread on the ping side
 * and an echo thread on the echo side, a thread per connection end. A frame is a 4-byte length and
 * a body of {@link #frameBody()} bytes: exactly as many as Troupe's envelope of a {@code Ping} once
 * the connection's string table knows its paths and manifest (one byte each for recipient, sender,
 * serializer and manifest, then the Jackson CBOR bytes of the record), so both move the same bytes
 * per message. The body carries the ping's {@code nanoTime} in its first 8 bytes; the echo side
 * writes every frame back unchanged.
 *
 * <ul>
 *   <li>{@code raw}: one {@code write} system call per frame on both ends (the pinger writes the
 *       next ping as each pong arrives, the echo thread each pong as its ping arrives);
 *   <li>{@code raw-batched}: writes are gathered while more input is already buffered or waiting in
 *       the socket: each end handles every frame it can read without blocking, then writes all
 *       their answers with one call. At one frame in flight both variants do the same.
 * </ul>
 *
 * Reads go through a 64 KiB buffer on both ends in both variants (one {@code read} takes whatever
 * has arrived). {@link #echoServer} is also what the child JVM of the two-JVM variant runs.
 */
public final class RawSocketPingPong implements RemotePingPongDriver {
  private static volatile int frameBody;

  private final boolean batched;
  private final boolean childJvm;
  private EchoServer server;
  private PongNode child;
  private final List<PingerThread> pingers = new ArrayList<>();

  /**
   * @param batched whether writes are gathered while more is queued
   * @param childJvm whether the echo side runs in a child JVM
   */
  RawSocketPingPong(boolean batched, boolean childJvm) {
    this.batched = batched;
    this.childJvm = childJvm;
  }

  /**
   * @return the body bytes of Troupe's frame for a {@code RemotePingPong} ping once the string
   *     table knows its paths and manifest: measured once with Troupe's own serializer binding
   */
  public static int frameBody() {
    int n = frameBody;
    if (n == 0) {
      ActorSystem s =
          TroupeSystems.start(
              Names.unique("raw-frame-size"),
              "troupe.actor.provider = remote\ntroupe.remote.canonical.port = 0\n"
                  + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
                  + "troupe.serialization.bindings { " + RemoteMessages.WIRE_BINDING + " }\n");
      try {
        byte[] cbor = Serialization.get(s).serialize(new Ping(System.nanoTime(), RemoteMessages.payload())).bytes();
        n = 4 + cbor.length; // recipient, sender, serializer id, manifest: one byte each
      } finally {
        TroupeSystems.stop(s);
      }
      frameBody = n;
    }
    return n;
  }

  @Override
  public void setup(int pairs, int inFlight) {
    int body = frameBody();
    System.out.printf("%nraw: frames of 4 + %d bytes, as Troupe's for the ping%n", body);
    InetSocketAddress echo;
    if (childJvm) {
      child = PongNode.start(batched ? "raw-batched" : "raw", pairs);
      String[] hostPort = child.address().split(":");
      echo = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
    } else {
      server = echoServer(batched);
      echo = server.address();
    }
    try {
      for (int i = 0; i < pairs; i++) {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(echo, 10_000);
        PingerThread t = new PingerThread(s, body, inFlight, batched, "raw-pinger-" + i);
        pingers.add(t);
        t.start();
      }
    } catch (IOException e) {
      teardown();
      throw new IllegalStateException("raw: cannot connect to " + echo, e);
    }
  }

  @Override
  public void runIteration(int roundTripsPerPair, Histogram[] histograms) {
    Completion done = new Completion(pingers.size());
    for (int i = 0; i < pingers.size(); i++) {
      pingers.get(i).jobs.add(new Job(roundTripsPerPair, histograms[i], done));
    }
    done.await("raw-socket ping-pong");
  }

  @Override
  public long childPid() {
    return child == null ? -1 : child.pid();
  }

  @Override
  public void teardown() {
    for (PingerThread t : pingers) {
      t.close();
    }
    pingers.clear();
    if (server != null) {
      server.close();
      server = null;
    }
    if (child != null) {
      child.stop();
      child = null;
    }
  }

  private record Job(int roundTrips, Histogram histogram, Completion done) {}

  /** Reads one frame's body into {@code into}; the length must be {@code into.length}. */
  private static void readFrame(DataInputStream in, byte[] into) throws IOException {
    int length = in.readInt();
    if (length != into.length) {
      throw new IOException("frame of " + length + " bytes, expected " + into.length);
    }
    in.readFully(into);
  }

  /** The ping side of one pair: its own thread, the connection's only reader and writer. */
  private static final class PingerThread extends Thread {
    final BlockingQueue<Job> jobs = new LinkedBlockingQueue<>();
    private final Socket socket;
    private final int body;
    private final int inFlight;
    private final boolean batched;

    PingerThread(Socket socket, int body, int inFlight, boolean batched, String name) {
      super(name);
      setDaemon(true);
      this.socket = socket;
      this.body = body;
      this.inFlight = inFlight;
      this.batched = batched;
    }

    @Override
    public void run() {
      try {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024));
        OutputStream out = socket.getOutputStream();
        byte[] frame = new byte[body];
        // room for every ping in flight: a batch never holds more
        ByteBuffer batch = ByteBuffer.allocate((4 + body) * Math.max(1, inFlight));
        while (true) {
          Job job = jobs.take();
          int sent = 0;
          int received = 0;
          int initial = Math.min(inFlight, job.roundTrips());
          batch.clear();
          for (int i = 0; i < initial; i++) {
            sent++;
            if (batched) {
              putPing(batch, body);
            } else {
              writePing(out, frame);
            }
          }
          flush(out, batch);
          while (received < job.roundTrips()) {
            readFrame(in, frame);
            job.histogram().recordValue(System.nanoTime() - ByteBuffer.wrap(frame).getLong(0));
            received++;
            if (sent < job.roundTrips()) {
              sent++;
              if (batched) {
                putPing(batch, body);
              } else {
                writePing(out, frame);
              }
            }
            if (batched && (in.available() == 0 || batch.remaining() < 4 + body)) {
              flush(out, batch); // nothing more to read without blocking: the gathered pings go
            }
          }
          flush(out, batch);
          job.done().done();
        }
      } catch (InterruptedException | IOException e) {
        // closed by teardown
      }
    }

    private static void writePing(OutputStream out, byte[] frame) throws IOException {
      byte[] f = new byte[4 + frame.length]; // one write per frame: the length and the body together
      ByteBuffer b = ByteBuffer.wrap(f);
      b.putInt(frame.length);
      b.putLong(System.nanoTime());
      out.write(f);
    }

    private static void putPing(ByteBuffer batch, int body) {
      batch.putInt(body);
      batch.putLong(System.nanoTime());
      batch.position(batch.position() + body - 8);
    }

    private static void flush(OutputStream out, ByteBuffer batch) throws IOException {
      if (batch.position() > 0) {
        out.write(batch.array(), 0, batch.position());
        batch.clear();
      }
    }

    void close() {
      interrupt();
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  /** The echo side: accepts connections and echoes each one's frames on a thread of its own. */
  static final class EchoServer {
    private final ServerSocket server;
    private final boolean batched;
    private final List<Socket> sockets = new ArrayList<>();
    private final Thread acceptor;

    EchoServer(boolean batched) throws IOException {
      this.batched = batched;
      this.server = new ServerSocket(0, 64, InetAddress.getByName("127.0.0.1"));
      this.acceptor = new Thread(this::accept, "raw-echo-acceptor");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    private void accept() {
      try {
        while (true) {
          Socket s = server.accept();
          s.setTcpNoDelay(true);
          synchronized (sockets) {
            sockets.add(s);
          }
          Thread t = new Thread(() -> echo(s), "raw-echo-" + s.getPort());
          t.setDaemon(true);
          t.start();
        }
      } catch (IOException closed) {
        // the server is closed
      }
    }

    private void echo(Socket s) {
      try {
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 * 1024));
        OutputStream out = s.getOutputStream();
        byte[] frame = null;
        ByteBuffer batch = ByteBuffer.allocate(64 * 1024);
        while (true) {
          int length = in.readInt();
          if (frame == null || frame.length != length) {
            if (length <= 0 || length > 1 << 20) {
              throw new IOException("frame length " + length);
            }
            frame = new byte[length];
            batch = ByteBuffer.allocate(Math.max(batch.capacity(), 4 + length));
          }
          in.readFully(frame);
          if (!batched) {
            byte[] f = new byte[4 + length]; // one write per frame
            ByteBuffer.wrap(f).putInt(length).put(frame);
            out.write(f);
            continue;
          }
          batch.putInt(length).put(frame);
          if (in.available() == 0 || batch.remaining() < 4 + length) {
            out.write(batch.array(), 0, batch.position());
            batch.clear();
          }
        }
      } catch (EOFException closed) {
        // the pinger closed its end
      } catch (IOException e) {
        // closed
      } finally {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }

    void close() {
      try {
        server.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      synchronized (sockets) {
        for (Socket s : sockets) {
          try {
            s.close();
          } catch (IOException ignored) {
            // closing anyway
          }
        }
      }
    }
  }

  /**
   * @param batched whether the echo threads gather their writes
   * @return a started echo server on 127.0.0.1 and an ephemeral port
   */
  static EchoServer echoServer(boolean batched) {
    try {
      return new EchoServer(batched);
    } catch (IOException e) {
      throw new IllegalStateException("raw: cannot listen on 127.0.0.1", e);
    }
  }
}
