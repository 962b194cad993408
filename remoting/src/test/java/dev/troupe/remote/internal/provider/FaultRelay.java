package dev.troupe.remote.internal.provider;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on 127.0.0.1 that stands between two nodes in a test and breaks their link on
 * demand: each accepted connection is copied byte for byte to {@code 127.0.0.1:target}, one thread
 * per direction. A node whose {@code canonical.port} is the relay's port (and whose {@code
 * bind.port} is its own) is reached only through the relay.
 *
 * <ul>
 *   <li>{@link #hold(Direction)}: a blackhole in that direction: bytes are read but not passed on
 *       (a partition; TCP itself loses nothing yet);
 *   <li>{@link #heal()}: what was held goes on, then everything flows again;
 *   <li>{@link #cut()}: every current connection is reset (RST) at once and whatever it held is
 *       lost, as when a link breaks mid-stream;
 *   <li>{@link #refuse(boolean)}: new connections are accepted and closed at once.
 * </ul>
 *
 * Threads are daemons and end with their sockets; {@link #close()} ends everything.
 */
final class FaultRelay implements AutoCloseable {
  /** Which way bytes travel: from the connecting node to the target, or back. */
  enum Direction { TO_TARGET, FROM_TARGET, BOTH }

  private final ServerSocket server;
  private volatile int target;
  private volatile boolean holdTo;
  private volatile boolean holdFrom;
  private volatile boolean refuse;
  private final Object gate = new Object();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();

  FaultRelay() {
    try {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread t = new Thread(this::acceptLoop, "fault-relay-accept-" + server.getLocalPort());
    t.setDaemon(true);
    t.start();
  }

  /** @return the port nodes connect to */
  int port() {
    return server.getLocalPort();
  }

  /** Where new connections go from now on. */
  void target(int port) {
    this.target = port;
  }

  /** @return connections accepted so far */
  int accepted() {
    return accepted.get();
  }

  void hold(Direction d) {
    if (d != Direction.FROM_TARGET) {
      holdTo = true;
    }
    if (d != Direction.TO_TARGET) {
      holdFrom = true;
    }
  }

  void heal() {
    synchronized (gate) {
      holdTo = false;
      holdFrom = false;
      gate.notifyAll();
    }
  }

  void refuse(boolean on) {
    refuse = on;
  }

  /** Resets every open connection; bytes held in them are lost. */
  void cut() {
    for (Socket s : sockets) {
      reset(s);
    }
    sockets.clear();
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0); // close with RST: unsent bytes are thrown away
    } catch (SocketException closedAlready) {
      // fine
    }
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      Socket in;
      try {
        in = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      accepted.incrementAndGet();
      if (refuse) {
        reset(in);
        continue;
      }
      Socket out = new Socket();
      try {
        out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5000);
      } catch (IOException e) {
        reset(in);
        reset(out);
        continue;
      }
      sockets.add(in);
      sockets.add(out);
      pump(in, out, true);
      pump(out, in, false);
    }
  }

  private void pump(Socket from, Socket to, boolean toTarget) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16 * 1024];
              try (InputStream i = from.getInputStream();
                  OutputStream o = to.getOutputStream()) {
                int n;
                while ((n = i.read(buf)) >= 0) {
                  synchronized (gate) {
                    while (toTarget ? holdTo : holdFrom) {
                      gate.wait(); // the bytes read wait here: nothing passes while held
                    }
                  }
                  o.write(buf, 0, n);
                  o.flush();
                }
              } catch (IOException | InterruptedException e) {
                // the link ends
              } finally {
                reset(from);
                reset(to);
              }
            },
            "fault-relay-pump-" + from.getPort());
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    heal();
    cut();
  }
}
