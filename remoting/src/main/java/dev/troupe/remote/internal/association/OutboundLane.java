package dev.troupe.remote.internal.association;

import dev.troupe.remote.internal.config.RemoteSettings;
import dev.troupe.remote.internal.transport.ControlFrame;
import dev.troupe.remote.internal.transport.Lane;
import dev.troupe.remote.internal.transport.NettyTransport;
import dev.troupe.remote.internal.transport.Outbound;
import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.OutboundListener;
import dev.troupe.remote.internal.transport.SequencedEnvelope;
import dev.troupe.remote.internal.transport.Wire;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLSession;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.MpscChunkedAtomicArrayQueue;
import org.jctools.util.Pow2;

/**
 * One outbound TCP connection to a peer (one lane of its {@link Association}) and the bounded
 * queue in front of it.
 *
 * <p>Any thread may {@link #send}: it only offers to the queue (a full queue drops the message,
 * with a {@code Dropped} event) and, when no drain is pending, schedules one on the lane's event
 * loop. Everything else runs on that one loop, so the connection's state needs no locks: connect
 * (with exponential backoff after failures; after {@code reconnect-attempts} failures in a row the
 * waiting messages are dropped and the next message starts over; a handshake that the peer refuses
 * for good, because this node dialled an address that is not the peer's, drops them at once, with
 * the peer's reason, and so does every message for a backoff after), handshake, and the drain, which
 * writes up to {@value #BATCH} envelopes and flushes once, so a burst costs one system call, not
 * one per message. While the connection's buffer is above its high-water mark the drain stops and
 * the queue absorbs the burst; it resumes when the buffer drains.
 *
 * <p>The control lane also writes its association's {@link SystemMessageOutbox}: sequenced system
 * messages go first in every drain (before heartbeats and the leaving notice in the queue, so a
 * death notice sent before termination precedes the notice that the node leaves), and every new
 * connection starts by writing all that are not yet acknowledged.
 */
public final class OutboundLane implements OutboundListener {
  /** Envelopes written per drain before the loop gets to serve its other channels. */
  static final int BATCH = 1024;

  private enum State { IDLE, CONNECTING, HANDSHAKING, ACTIVE, BACKOFF, CLOSED }

  private final Association association;
  private final Lane lane;
  private final NettyTransport transport;
  private final EventLoop loop;
  private final int capacity;
  private final MessagePassingQueue<Outbound> queue;
  private final SystemMessageOutbox outbox; // the control lane's; null on the ordinary lane
  /**
   * True while a wake-up is scheduled or the lane is not ready to drain (connecting, backing off,
   * waiting for writability): senders then only enqueue. Set back to false by the drain when it
   * found the queue empty, which then looks at the queue once more: a sender's offer and its read
   * of this flag, and the drain's write of this flag and its read of the queue, are each ordered
   * by volatile accesses (the queue's producer-index CAS and {@code isEmpty}'s volatile read), so
   * one of the two sides always sees the other and no message is left behind without a drain.
   */
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private final Runnable wake = this::wake;

  // confined to the event loop
  private State state = State.IDLE;
  private Channel channel;
  private int failures;
  private ScheduledFuture<?> retry;
  private long peerUid; // of the current connection, once its handshake is done
  private boolean refusedForGood; // the current connection's handshake was refused for good
  private String refusal; // why the last handshake was refused for good, while refusedUntil lasts
  private long refusedUntil; // System.nanoTime() before which no new connection is tried after that
  private int refusals; // refusals for good in a row: the hold after each doubles, as a backoff does

  OutboundLane(Association association, Lane lane, NettyTransport transport) {
    this.association = association;
    this.lane = lane;
    this.transport = transport;
    this.loop = association.loop();
    RemoteSettings s = transport.settings();
    this.capacity = switch (lane) {
      case CONTROL -> s.controlQueueSize();
      case ORDINARY -> s.messageQueueSize();
      case LARGE -> s.largeMessageQueueSize();
    };
    int max = Math.max(4, capacity); // the queue's smallest bound; it grows in chunks up to it
    this.queue = new MpscChunkedAtomicArrayQueue<>(Math.min(256, Pow2.roundToPowerOfTwo(max) / 2), max);
    this.outbox = lane == Lane.CONTROL ? association.outbox() : null;
  }

  public Lane lane() {
    return lane;
  }

  public Association association() {
    return association;
  }

  public EventLoop loop() {
    return loop;
  }

  public org.slf4j.Logger logger() {
    return transport.log().logger();
  }

  /**
   * On the lane's loop only.
   *
   * @return the TLS session of the lane's connection once its TLS handshake completed; null
   *     before, when not connected, or when TLS is off
   */
  public SSLSession tlsSession() {
    Channel ch = channel;
    SslHandler h = ch == null ? null : ch.pipeline().get(SslHandler.class);
    return h == null || !h.handshakeFuture().isSuccess() ? null : h.engine().getSession();
  }

  /** Any thread; never blocks. */
  public void send(Outbound o) {
    if (!queue.offer(o)) {
      if (!(o instanceof OutboundEnvelope e)) {
        ((ControlFrame) o).finished(); // the next heartbeat goes when there is room
        return;
      }
      transport.drops().dropped(
          e,
          "the " + lane + " queue to " + association.remote + " is full (" + capacity + " messages waiting;"
              + " troupe.remote.advanced.outbound-" + switch (lane) {
                case CONTROL -> "control";
                case ORDINARY -> "message";
                case LARGE -> "large-message";
              } + "-queue-size)");
      return;
    }
    wakeUp();
  }

  /** Any thread: makes sure a drain follows (something was queued, or the outbox has work). */
  void wakeUp() {
    if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
      execute(wake);
    }
  }

  /**
   * On the loop: whether the lane is idle, not connected, with nothing queued or about to be
   * (a sender's wake-up is scheduled before its drain runs), so that its association may retire.
   */
  boolean quiet() {
    return state == State.IDLE && !scheduled.get() && queue.isEmpty();
  }

  /** @return whether something waits to be written */
  private boolean pending() {
    return !queue.isEmpty() || (outbox != null && outbox.hasUnwritten());
  }

  private void execute(Runnable task) {
    try {
      loop.execute(task);
    } catch (RejectedExecutionException terminated) {
      synchronized (this) { // the loop is gone, so no drain runs: senders take turns emptying the queue
        dropAll("the system is shut down");
      }
    }
  }

  // ------------------------------------------------------------------ on the event loop

  private void wake() {
    switch (state) {
      case IDLE -> {
        if (association.retired()) {
          forward();
        } else if (!pending()) {
          idle();
        } else if (refusal != null && System.nanoTime() - refusedUntil < 0) {
          stillRefused();
        } else {
          refusal = null;
          connect();
        }
      }
      case ACTIVE -> drain();
      case CLOSED -> dropAll("the system is shut down");
      default -> {} // connecting, handshaking or backing off: the drain follows the handshake
    }
  }

  /**
   * The association was retired while a sender still held it: what was queued here goes to the
   * association that stands for the node now.
   */
  private void forward() {
    Association next = association.successor();
    Outbound o;
    while ((o = queue.relaxedPoll()) != null) {
      if (next != null) {
        next.lane(lane).send(o);
      } else if (o instanceof OutboundEnvelope e) {
        transport.drops().dropped(
            e, "no association with " + association.remote + " can be made now (troupe.remote.advanced.maximum-associations)");
      } else {
        ((ControlFrame) o).finished();
      }
    }
    idle();
  }

  private void connect() {
    association.touch();
    state = State.CONNECTING;
    channel = null;
    refusedForGood = false;
    transport.resolve(association.remote, loop, this::resolved);
  }

  /** On the loop: the peer's host was looked up ({@code to} null: it could not be). */
  private void resolved(InetSocketAddress to) {
    if (state != State.CONNECTING || channel != null) {
      return; // closed meanwhile
    }
    if (to == null) {
      failed(null, "cannot resolve host " + association.remote.host().orElse("?"));
      return;
    }
    ChannelFuture f;
    try {
      f = transport.connect(lane, association.remote, to, loop, this);
    } catch (RuntimeException e) {
      failed(null, String.valueOf(e));
      return;
    }
    channel = f.channel();
    f.addListener(
        (ChannelFuture done) -> {
          if (done.channel() != channel || state != State.CONNECTING) {
            return;
          }
          if (done.isSuccess()) {
            state = State.HANDSHAKING; // the connection's handshake handler writes this node's handshake
          } else {
            failed(done.channel(), String.valueOf(done.cause()));
          }
        });
  }

  /** The peer (incarnation {@code peerUid}) acknowledged the handshake on {@code ch}. */
  @Override
  public void handshakeDone(Channel ch, long peerUid) {
    if (ch != channel || state != State.HANDSHAKING) {
      return;
    }
    if (!association.outboundUp(peerUid)) {
      failed(ch, "its incarnation (uid " + peerUid + ") is quarantined or was replaced: nothing more goes to it; a restarted node is reached again");
      return;
    }
    state = State.ACTIVE;
    failures = 0;
    refusals = 0;
    this.peerUid = peerUid;
    if (outbox != null) {
      outbox.rewind(); // whatever the last connection may have swallowed goes again
    }
    drain();
  }

  /**
   * Any thread: an accepted connection claimed that the peer restarted, which only this lane's own
   * connection can confirm. Idle, the lane connects now, and the acknowledgement tells who lives
   * at the address; connected, it sends a heartbeat, so that a connection whose far end is gone
   * without a close having arrived fails on that write and the next claim finds the lane idle
   * (connecting or backing off, it learns the uid anyway). Never dials an address the association
   * was not already dialling: the caller asks only when the current incarnation was confirmed this
   * way.
   */
  void verify() {
    execute(
        () -> {
          if (state == State.IDLE) {
            connect();
          } else if (state == State.ACTIVE) {
            send(ControlFrame.HEARTBEAT);
          }
        });
  }

  /** The connection became writable again. */
  @Override
  public void writable(Channel ch) {
    if (ch == channel && state == State.ACTIVE && ch.isWritable()) {
      drain();
    }
  }

  /** {@code ch} closed (or failed during its handshake, with {@code reason}). */
  @Override
  public void closed(Channel ch, String reason) {
    if (ch != channel) {
      return;
    }
    switch (state) {
      case ACTIVE -> {
        channel = null;
        state = State.IDLE;
        association.connectionDown(peerUid); // the idle time starts again
        transport.log().logger().info("{} lane to {} closed{}", lane, association.remote, reason == null ? "" : ": " + reason);
        if (pending() || (outbox != null && outbox.waiting())) { // unacknowledged: resend on a new connection
          connect();
        } else {
          idle();
        }
      }
      case CONNECTING, HANDSHAKING -> failed(ch, reason == null ? "the peer closed the connection during the handshake" : reason);
      default -> channel = null;
    }
  }

  /**
   * The peer refused the handshake on {@code ch} for good (another address, see {@link
   * Wire#decodeRefusal}): the close that follows fails what waits at once instead of retrying.
   */
  @Override
  public void refused(Channel ch) {
    if (ch == channel && state == State.HANDSHAKING) {
      refusedForGood = true;
    }
  }

  /**
   * Within the hold after a refusal for good ({@code reconnect-min-backoff}, doubled for each one in
   * a row up to {@code reconnect-max-backoff}): what was sent since fails with its reason, and a new
   * connection is tried only once that time is over (then at once if system messages wait, which a
   * refusal does not drop).
   */
  private void stillRefused() {
    dropAll(refusal);
    if (outbox != null && outbox.hasUnwritten()) {
      state = State.BACKOFF;
      retry =
          loop.schedule(
              () -> {
                if (state == State.BACKOFF) {
                  refusal = null;
                  connect();
                }
              },
              Math.max(0, refusedUntil - System.nanoTime()),
              TimeUnit.NANOSECONDS);
    } else {
      idle();
    }
  }

  private void failed(Channel ch, String reason) {
    if (ch != channel) {
      return;
    }
    channel = null;
    if (ch != null) {
      ch.close();
    }
    if (refusedForGood) {
      refusedForGood = false;
      failures = 0;
      state = State.IDLE;
      association.touch();
      refusal = "cannot reach " + association.remote + " (" + lane + " lane): " + reason;
      refusedUntil = System.nanoTime() + backoffNanos(++refusals);
      transport.log().warn("{}; dropping the messages waiting for it", refusal);
      stillRefused();
      return;
    }
    if (outbox != null && state != State.HANDSHAKING) {
      // Only a connect that fails means that a node which said it leaves is gone. A handshake that
      // something at the address refused is no proof: the node that left may live on and refuse a
      // second control connection until it has seen the close of the first (Association).
      association.unreachableAfterLeaving();
    }
    failures++;
    int attempts = transport.settings().reconnectAttempts();
    if (failures >= attempts) {
      failures = 0;
      state = State.IDLE;
      association.touch(); // idle from now: a node that was never reached goes after association-idle-timeout
      String why = "cannot reach " + association.remote + " (" + lane + " lane) after " + attempts + " attempts: " + reason;
      transport.log().warn("{}; dropping the messages waiting for it", why);
      dropAll(why);
      idle();
      return;
    }
    long delay = backoffNanos(failures);
    transport.log().warn(
        "connecting the {} lane to {} failed (attempt {} of {}), retrying in {} ms: {}",
        lane, association.remote, failures, attempts, delay / 1_000_000, reason);
    state = State.BACKOFF;
    retry =
        loop.schedule(
            () -> {
              if (state == State.BACKOFF) {
                connect();
              }
            },
            delay,
            TimeUnit.NANOSECONDS);
  }

  private long backoffNanos(int failure) {
    RemoteSettings s = transport.settings();
    long min = s.minBackoff().toNanos();
    long max = s.maxBackoff().toNanos();
    long d = min << Math.min(failure - 1, 30);
    return d <= 0 || d > max ? max : d;
  }

  /** The acknowledgement of system messages up to {@code upTo} arrived on {@code ch}. */
  @Override
  public void systemAck(Channel ch, long upTo) {
    if (ch == channel && outbox != null) {
      association.acked(upTo);
    }
  }

  /** The peer answered a heartbeat on {@code ch} (the control lane's connection). */
  @Override
  public void heartbeatResponse(Channel ch) {
    if (ch == channel) {
      association.heartbeatResponse();
    }
  }

  /** Any thread: closes the current connection if it leads to incarnation {@code uid} (quarantined). */
  void closeIfPeer(long uid) {
    try {
      loop.execute(
          () -> {
            if (state == State.ACTIVE && peerUid == uid && channel != null) {
              channel.close();
            }
          });
    } catch (RejectedExecutionException terminated) {
      // closed with the system
    }
  }

  /** Nothing to do: let senders schedule the next wake-up, unless one slipped in. */
  private void idle() {
    scheduled.set(false);
    if (pending() && scheduled.compareAndSet(false, true)) {
      loop.execute(wake);
    }
  }

  private void drain() {
    Channel ch = channel;
    int n = 0;
    if (outbox != null) {
      SequencedEnvelope s;
      while (n < BATCH && ch.isWritable() && (s = outbox.nextToWrite()) != null) {
        ch.write(s, ch.voidPromise());
        n++;
      }
    }
    Outbound o;
    while (n < BATCH && ch.isWritable() && (o = queue.relaxedPoll()) != null) {
      write(ch, o);
      n++;
    }
    if (n > 0) {
      ch.flush();
    }
    if (!ch.isWritable() || state != State.ACTIVE) {
      return; // writable(ch) or the next connection drains the rest
    }
    if (n == BATCH) {
      loop.execute(wake); // more waiting: let the loop serve its other channels first
      return;
    }
    idle();
  }

  private static void write(Channel ch, Outbound o) {
    if (o instanceof ControlFrame c && c.done() != null) {
      ch.write(c).addListener(f -> c.finished());
    } else {
      ch.write(o, ch.voidPromise());
    }
  }

  private void dropAll(String reason) {
    Outbound o;
    while ((o = queue.relaxedPoll()) != null) {
      if (o instanceof OutboundEnvelope e) {
        transport.drops().dropped(e, reason);
      } else {
        ((ControlFrame) o).finished(); // heartbeats and notices are not messages: no Dropped event
      }
    }
  }

  /** The system terminates: writes what is waiting (best effort), then closes the connection. */
  public void close() {
    if (retry != null) {
      retry.cancel(false);
    }
    Channel ch = channel;
    if (state == State.ACTIVE) {
      if (outbox != null) {
        SequencedEnvelope s;
        while ((s = outbox.nextToWrite()) != null) {
          ch.write(s, ch.voidPromise());
        }
      }
      Outbound o;
      while ((o = queue.relaxedPoll()) != null) {
        write(ch, o);
      }
      ch.flush();
    }
    state = State.CLOSED;
    channel = null;
    if (ch != null) {
      ch.close();
    }
    dropAll("the system is shut down");
  }

  @Override
  public String toString() {
    return lane + " lane to " + association.remote;
  }
}
