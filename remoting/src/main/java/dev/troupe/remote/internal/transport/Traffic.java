package dev.troupe.remote.internal.transport;

import dev.troupe.actor.Address;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.LengthFieldPrepender;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What went over the connections with each peer, for the meters: messages and bytes, each way.
 *
 * <p><b>No shared write per message, and no handler step of its own per message.</b> Every
 * connection counts into a {@link Cell} of its own, written only by the connection's event loop
 * with plain arithmetic and an opaque store (no CAS, no {@code LongAdder}, nothing another thread
 * writes). The bytes read are counted by {@link Bytes}, right after TLS, once per buffer read (not
 * per frame); everything else is counted by the code that already touches each frame: the {@link
 * EnvelopeEncoder} counts each envelope it is given (user or system message) and the bytes of each
 * frame it writes, the {@link EnvelopeDecoder} each envelope it decodes, and an accepted
 * connection's few frames out (acknowledgements, answers to heartbeats) are counted by its {@link
 * Prepender}. All counts are of the bytes before encryption. A connection's cell is attached to its
 * peer's {@link Peer} once the peer is known (an outbound connection at once, an accepted one when
 * its handshake is accepted) and folded into the peer's totals when the connection closes; the
 * peer sums its folded totals and its live cells under its own lock, which only attaching, folding
 * and readers take, so a reader never sees a total go down.
 *
 * <p>Peers are kept by address, at most {@value #MAX_PEERS}; connections of later peers are not
 * counted.
 */
public final class Traffic {
  /** Peers counted at most (addresses are the peers' to choose). */
  public static final int MAX_PEERS = 1024;

  private final ConcurrentHashMap<Address, Peer> peers = new ConcurrentHashMap<>();

  /** @return every peer counted so far (also those no longer connected) */
  public List<Peer> peers() {
    return new ArrayList<>(peers.values());
  }

  /** @return the peer's counts, created on first use; null beyond {@value #MAX_PEERS} peers */
  Peer peer(Address address) {
    Peer p = peers.get(address);
    if (p != null || peers.size() >= MAX_PEERS) {
      return p;
    }
    return peers.computeIfAbsent(address, Peer::new);
  }

  /** The totals of one peer, in and out. */
  public record Totals(long messagesSent, long bytesSent, long messagesReceived, long bytesReceived) {}

  /** One peer: the cells of its open connections and what closed ones left. */
  public static final class Peer {
    private final Address address;
    // guarded by this
    private final List<Cell> live = new ArrayList<>(4);
    private long messagesSent;
    private long bytesSent;
    private long messagesReceived;
    private long bytesReceived;

    Peer(Address address) {
      this.address = address;
    }

    public Address address() {
      return address;
    }

    synchronized void attach(Cell c) {
      live.add(c);
    }

    /** On the cell's loop, once: no more counts go to it afterwards. */
    synchronized void fold(Cell c) {
      if (live.remove(c)) {
        messagesSent += c.messagesSent;
        bytesSent += c.bytesSent;
        messagesReceived += c.messagesReceived;
        bytesReceived += c.bytesReceived;
      }
    }

    /** @return the cells of connections open now (tests) */
    synchronized int liveCells() {
      return live.size();
    }

    /** @return the totals now, on any thread */
    public synchronized Totals totals() {
      long ms = messagesSent;
      long bs = bytesSent;
      long mr = messagesReceived;
      long br = bytesReceived;
      for (Cell c : live) {
        ms += (long) Cell.MESSAGES_SENT.getOpaque(c);
        bs += (long) Cell.BYTES_SENT.getOpaque(c);
        mr += (long) Cell.MESSAGES_RECEIVED.getOpaque(c);
        br += (long) Cell.BYTES_RECEIVED.getOpaque(c);
      }
      return new Totals(ms, bs, mr, br);
    }
  }

  /**
   * The counts of one connection. Written only on its event loop (a plain read of its own last
   * value, then an opaque store, so a reader on another thread never sees a torn long); read by
   * {@link Peer#totals} with opaque loads. Opaque is enough: each count is read on its own, and
   * the peer's lock orders the fold against the readers.
   */
  static final class Cell {
    static final VarHandle MESSAGES_SENT;
    static final VarHandle BYTES_SENT;
    static final VarHandle MESSAGES_RECEIVED;
    static final VarHandle BYTES_RECEIVED;

    static {
      try {
        MethodHandles.Lookup l = MethodHandles.lookup();
        MESSAGES_SENT = l.findVarHandle(Cell.class, "messagesSent", long.class);
        BYTES_SENT = l.findVarHandle(Cell.class, "bytesSent", long.class);
        MESSAGES_RECEIVED = l.findVarHandle(Cell.class, "messagesReceived", long.class);
        BYTES_RECEIVED = l.findVarHandle(Cell.class, "bytesReceived", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    // the connection's event loop writes; readers use the VarHandles
    long messagesSent;
    long bytesSent;
    long messagesReceived;
    long bytesReceived;
    // the connection's event loop only
    private Peer peer;
    private boolean closed;

    /** Counts for {@code p} from now on (null: not counted); on the loop. */
    void attach(Peer p) {
      if (peer == null && !closed && p != null) {
        peer = p;
        p.attach(this);
      }
    }

    /** The connection closed; on the loop. */
    void close() {
      if (!closed) {
        closed = true;
        if (peer != null) {
          peer.fold(this);
        }
      }
    }

    void sent(int bytes) {
      if (!closed) {
        BYTES_SENT.setOpaque(this, bytesSent + bytes);
      }
    }

    void received(int bytes) {
      if (!closed) {
        BYTES_RECEIVED.setOpaque(this, bytesReceived + bytes);
      }
    }

    void messageSent() {
      if (!closed) {
        MESSAGES_SENT.setOpaque(this, messagesSent + 1);
      }
    }

    void messageReceived() {
      if (!closed) {
        MESSAGES_RECEIVED.setOpaque(this, messagesReceived + 1);
      }
    }
  }

  /**
   * The bytes read by one connection, right after TLS: each buffer read (one step per read, however
   * many frames it holds). It has no write method, so writes pass it by. An accepted connection's
   * cell is attached to its peer when the handshake is accepted ({@link
   * HandshakeDeadline.HandshakeDone}, which passes here on its way through the pipeline); the cell
   * is folded when the connection closes (or, one that never connected, is deregistered).
   */
  static final class Bytes extends ChannelInboundHandlerAdapter {
    private final Traffic traffic;
    private final Cell cell;

    /** @param peer the peer of an outbound connection, or null for an accepted one (known later) */
    Bytes(Traffic traffic, Cell cell, Address peer) {
      this.traffic = traffic;
      this.cell = cell;
      if (peer != null) {
        cell.attach(traffic.peer(peer));
      }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf b) {
        cell.received(b.readableBytes());
      } else if (msg instanceof ByteBufHolder h) {
        cell.received(h.content().readableBytes());
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      // an outbound connection's handshake ends with one too, naming no handshake (its peer is known)
      if (evt instanceof HandshakeDeadline.HandshakeDone done && done.handshake() != null) {
        cell.attach(traffic.peer(done.handshake().origin()));
      }
      ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      cell.close();
      ctx.fireChannelInactive();
    }

    /** Also for a connection that never became active (a connect that failed): its cell goes too. */
    @Override
    public void channelUnregistered(ChannelHandlerContext ctx) {
      cell.close();
      ctx.fireChannelUnregistered();
    }
  }

  /**
   * The length prefix of an accepted connection's frames out (its handshake answer,
   * acknowledgements, answers to heartbeats: few frames), counting their bytes, length included.
   */
  static final class Prepender extends LengthFieldPrepender {
    private final Cell cell;

    Prepender(Cell cell) {
      super(4);
      this.cell = cell;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) throws Exception {
      cell.sent(4 + msg.readableBytes());
      super.encode(ctx, msg, out);
    }
  }
}
