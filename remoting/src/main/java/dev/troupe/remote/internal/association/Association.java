package dev.troupe.remote.internal.association;

import dev.troupe.actor.Address;
import dev.troupe.actor.EventStream;
import dev.troupe.remote.AssociatedEvent;
import dev.troupe.remote.DisassociatedEvent;
import dev.troupe.remote.internal.config.RemoteSettings;
import dev.troupe.remote.internal.transport.Lane;
import dev.troupe.remote.internal.transport.NettyTransport;
import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.Wire;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Everything this node keeps about one other node: its outbound lanes (control and ordinary, and
 * the large-message lane when {@code large-message-destinations} is set: a third connection of its
 * own, whose handshake names its lane, so a stream of big messages on it delays neither the
 * heartbeats and system messages of the control lane nor the small messages of the ordinary one), how many of the
 * connections between the two (both directions, every lane) have completed their handshake (the
 * first one publishes {@link AssociatedEvent}, the last one to close {@link DisassociatedEvent},
 * unless the failure detector published it already, see {@link #declareGone()}), and both halves
 * of exactly-once delivery of system messages: the {@link SystemMessageOutbox} towards the peer
 * with its resend timer, and the {@link InboundSystemSequence} from the peer.
 *
 * <p><b>Whose word counts.</b> The peer's incarnation is its uid. A connection this node dialled
 * (an outbound lane, to the peer's canonical address) learns the uid from the acknowledgement of
 * whoever listens at that address: that is the node this association speaks to, so its word is
 * taken ({@link #outboundUp}) and the incarnation counts as <em>confirmed</em>. An accepted
 * connection only claims an origin and a uid in its handshake, and anyone who can reach the port
 * can claim anything (unless TLS binds the origin to a certificate, see {@code
 * InboundHandshakeHandler}), so its claim is judged ({@link #inboundUp}):
 *
 * <ul>
 *   <li>the first uid heard for the address, or the current one: accepted;
 *   <li>a uid that is over (replaced by a restart, or quarantined): refused;
 *   <li>a new uid while the current one is confirmed — a restart claim: refused, and the control
 *       lane connects (when it is idle) so that the address itself tells which incarnation lives
 *       there. If it acknowledges the new uid, that is the restart: the old incarnation is gone
 *       ({@link Hooks#incarnationGone}, once), its connections are closed, and the real new node,
 *       which retries with backoff, is accepted on its next try. If it acknowledges the old uid,
 *       nothing changes. Nothing else ever makes this node dial: only an address it already
 *       dialled on its own is dialled again;
 *   <li>a new uid while the current one is not confirmed (only accepted connections ever named
 *       it): believed only when no connection of the current incarnation is open any more —
 *       nothing stronger was ever known of that incarnation either.
 * </ul>
 *
 * A new incarnation starts the system-message sequences again. An incarnation whose system
 * messages could not be delivered exactly once is quarantined ({@link #quarantine}): no
 * connection with that uid is accepted or kept, and nothing more is sent to it. The incarnations
 * that are over are remembered in bounded sets ({@link RecentUids}, the last {@value
 * RecentUids#CAPACITY} of each), so uids made up by a peer cost no memory.
 *
 * <p><b>The owner of the control stream.</b> Of the accepted control-lane connections of the
 * current incarnation, only one may be open: the first, its owner, until it closes; a second is
 * refused. Only the owner's sequence numbers ({@link InboundSystemSequence}) and leaving notice
 * count ({@link #ownsControl}), so a second connection claiming the same node can neither
 * number system messages ahead of the real ones (which would then be dropped as duplicates) nor
 * say the node leaves. Each refused second connection makes the owner repeat its last
 * acknowledgement, so that an owner the peer has lost without a close reaching this node fails on
 * that write and makes room for the peer's new connection.
 *
 * <p>The lanes, the resend timer and the retirement check run on one event loop, the
 * association's. An association that stays idle (no connection, nothing queued, nothing waiting
 * for acknowledgement; {@link Associations} also checks that nothing is watched there) is <b>retired</b>
 * ({@link #retireIfIdle}): removed from the {@link Associations}' table, and what must
 * outlive it ({@link Remembered}: the peer's incarnation, quarantined and replaced ones, the
 * system-message numbering both ways) kept in a bounded record that the next association with
 * the same node starts from. A sender that still holds a retired association is not lost: its lane
 * hands what it is given to the association that replaced it ({@link Hooks#successor}).
 */
public final class Association {
  /**
   * What {@link #inboundUp} answers (this very string) when the association was retired meanwhile:
   * the caller offers the connection to the association that replaces it.
   */
  public static final String RETIRED = "its association was retired while the handshake came in";

  /** What the association needs of the layer above it (the provider implements it). */
  public interface Hooks {
    /** The peer's incarnation {@code uid} is gone (restarted or quarantined): tell death watch. */
    void incarnationGone(Association association, long uid, String why);

    /** The incarnation {@code uid} of the peer is quarantined now (called once per uid). */
    void quarantined(Association association, long uid, String why, List<OutboundEnvelope> lost);

    /** A system message could not be kept: dropped with {@code reason}. */
    void dropped(OutboundEnvelope e, String reason);

    /**
     * @return the association that now stands for {@code remote} (this one was retired), or null
     *     when none can be created ({@code maximum-associations})
     */
    Association successor(Address remote);

    /** The peer answered a heartbeat on this node's control lane: its failure detector hears of it. */
    void heartbeatResponse(Association association);

    /**
     * The association went up ({@code up}) or down: called under the association's lock, right
     * after its {@code AssociatedEvent} or {@code DisassociatedEvent} is published, so that these
     * calls keep the events' order. Must not block.
     *
     * @param uid the peer's current incarnation
     */
    void lifecycle(Association association, boolean up, long uid);
  }

  /**
   * What a retired association leaves for the next one with the same node.
   *
   * @param uid the peer's incarnation as last told, 0 if none
   * @param confirmed whether that incarnation was acknowledged on a connection this node dialled
   *     (a later restart claim must then still be confirmed the same way)
   * @param quarantined incarnations quarantined here, oldest first: they stay refused
   * @param replaced incarnations a restart replaced, oldest first: they stay refused
   * @param nextSeq the number the next system message to the peer gets
   * @param inbound where the sequence of system messages from the peer stands
   */
  public record Remembered(
      long uid, boolean confirmed, long[] quarantined, long[] replaced, long nextSeq, InboundSystemSequence.State inbound) {}

  public final Address remote;
  private final EventStream events;
  private final Hooks hooks;
  private final RemoteSettings settings;
  private final LongSupplier clock;
  private final EventLoop loop;
  private volatile boolean retired;
  private volatile long activeAt; // when a connection last opened or closed, or the association was made
  private final OutboundLane control;
  private final OutboundLane ordinary;
  private final OutboundLane large; // null unless troupe.remote.large-message-destinations names some
  private final List<OutboundLane> lanes;
  private final SystemMessageOutbox outbox;
  private int connections; // guarded by this
  private long uid; // guarded by this; the peer's incarnation, 0 until a handshake told it
  private boolean confirmed; // guarded by this: uid was acknowledged on a connection this node dialled
  private int ofCurrent; // guarded by this: open handshaken connections of incarnation uid
  private volatile Channel controlOwner; // written under this: the accepted control connection of uid
  private boolean down; // guarded by this; the failure detector gave up on the open connections
  private boolean goneDeclared; // guarded by this
  private long goneUid; // guarded by this
  private final RecentUids quarantinedUids = new RecentUids(); // guarded by this
  private final RecentUids replacedUids = new RecentUids(); // guarded by this: incarnations a restart replaced
  private ScheduledFuture<?> resendTimer; // guarded by this
  private long leftUid; // guarded by this: the incarnation that said it leaves, 0 if none
  private final Map<Channel, Long> inbound = new ConcurrentHashMap<>(); // accepted connections from the peer, by uid
  private final InboundSystemSequence inboundSequence = new InboundSystemSequence();

  public Association(Address remote, NettyTransport transport, EventStream events, Hooks hooks, LongSupplier clock) {
    this.remote = remote;
    this.events = events;
    this.hooks = hooks;
    this.settings = transport.settings();
    this.clock = clock;
    this.outbox = new SystemMessageOutbox(settings.systemMessageBufferSize());
    this.loop = transport.nextLoop();
    this.activeAt = clock.getAsLong();
    this.control = new OutboundLane(this, Lane.CONTROL, transport);
    this.ordinary = new OutboundLane(this, Lane.ORDINARY, transport);
    this.large = settings.largeMessageDestinations().isEmpty() ? null : new OutboundLane(this, Lane.LARGE, transport);
    this.lanes = large == null ? List.of(control, ordinary) : List.of(control, ordinary, large);
  }

  /** @return the event loop of both lanes and the timers */
  public EventLoop loop() {
    return loop;
  }

  /** A connection opened or closed, or a lane started to connect: the idle time starts again. */
  void touch() {
    activeAt = clock.getAsLong();
  }

  /** @return when a connection last opened or closed (the clock's nanoseconds) */
  public long activeAt() {
    return activeAt;
  }

  /** @return whether this association was retired and removed from the table (see {@link #retireIfIdle}) */
  public boolean retired() {
    return retired;
  }

  /** The peer answered a heartbeat on the control lane's connection. */
  void heartbeatResponse() {
    hooks.heartbeatResponse(this);
  }

  /** @return the association that stands for the node now (this one is retired), or null */
  Association successor() {
    Association next = hooks.successor(remote);
    return next == this ? null : next;
  }

  /**
   * On {@link #loop()}: retires this association if it has been idle for {@code idleNanos} (no
   * connection in either direction, both lanes idle with empty queues, no system message waiting
   * for acknowledgement). The caller has checked that no actor there is watched, and removes it
   * from its table.
   *
   * @return what the next association with the node must know (null when there is nothing: the
   *     peer never completed a handshake and no system message ever crossed), or {@link
   *     #NOT_RETIRED}
   */
  public Remembered retireIfIdle(long nowNanos, long idleNanos) {
    if (nowNanos - activeAt < idleNanos || !control.quiet() || !ordinary.quiet() || (large != null && !large.quiet())) {
      return NOT_RETIRED;
    }
    synchronized (this) {
      if (retired || connections > 0 || !inbound.isEmpty() || resendTimer != null || outbox.waiting() || outbox.hasUnwritten()) {
        return NOT_RETIRED;
      }
      retired = true;
      InboundSystemSequence.State in = inboundSequence.state();
      long next = outbox.nextSeq();
      if (uid == 0 && quarantinedUids.size() == 0 && next == 1 && in.uid() == 0) {
        return null;
      }
      return new Remembered(uid, confirmed, quarantinedUids.toArray(), replacedUids.toArray(), next, in);
    }
  }

  /** Returned by {@link #retireIfIdle} when the association stays. */
  public static final Remembered NOT_RETIRED = new Remembered(0, false, new long[0], new long[0], 0, null);

  /** Before first use: goes on from what a retired association with the same node left. */
  public void restore(Remembered r) {
    synchronized (this) {
      uid = r.uid();
      confirmed = r.confirmed();
      quarantinedUids.addAll(r.quarantined());
      replacedUids.addAll(r.replaced());
    }
    outbox.continueAt(r.nextSeq());
    inboundSequence.restore(r.inbound());
  }

  /**
   * @return the outbound lane of that kind; the ordinary one for {@link Lane#LARGE} when no
   *     large-message destination is configured (then no ref chooses it)
   */
  public OutboundLane lane(Lane lane) {
    return switch (lane) {
      case CONTROL -> control;
      case ORDINARY -> ordinary;
      case LARGE -> large != null ? large : ordinary;
    };
  }

  /** @return every outbound lane of this association, each once */
  public List<OutboundLane> lanes() {
    return lanes;
  }

  public SystemMessageOutbox outbox() {
    return outbox;
  }

  /**
   * A connection this node dialled to the peer's canonical address completed its handshake: the
   * acknowledgement's uid is the incarnation that lives at that address, so a new one there is a
   * restart.
   *
   * @param peerUid the uid of the peer's incarnation, as its acknowledgement said
   * @return false if that incarnation is over (quarantined, or replaced): the caller closes the
   *     connection
   */
  boolean outboundUp(long peerUid) {
    long previous;
    synchronized (this) {
      if (retired) {
        return false; // the caller takes the connection to the successor
      }
      if (peerUid == 0 || quarantinedUids.contains(peerUid) || replacedUids.contains(peerUid)) {
        return false; // a late connection of an incarnation that is over must not switch back to it
      }
      activeAt = clock.getAsLong();
      previous = uid;
      if (previous != peerUid) {
        become(peerUid);
      }
      confirmed = true;
      up();
    }
    if (previous != 0 && previous != peerUid) {
      restarted(previous, peerUid);
    }
    return true;
  }

  /**
   * An accepted connection's handshake claims that it comes from incarnation {@code peerUid} of
   * the peer: judged as the class comment says. When accepted, the connection counts as up (the
   * caller acknowledges it) and, on the control lane, owns the incarnation's control stream.
   *
   * @return null when accepted, else why it is refused (the caller closes the connection)
   */
  public String inboundUp(Channel ch, Lane lane, long peerUid) {
    long previous;
    String refused = null;
    boolean verify = false;
    Channel owner = null;
    synchronized (this) {
      if (retired) {
        return RETIRED; // the caller takes the connection to the successor
      }
      activeAt = clock.getAsLong();
      previous = uid;
      boolean restart = previous != 0 && previous != peerUid;
      if (peerUid == 0) {
        refused = "uid 0 names no incarnation";
      } else if (quarantinedUids.contains(peerUid) || replacedUids.contains(peerUid)) {
        refused = "its incarnation (uid " + peerUid + ") is quarantined here, or was replaced by a newer one";
      } else if (restart && confirmed) {
        verify = true;
        refused = "it claims that " + remote + " restarted (uid " + previous + " is now " + peerUid + "), which is believed"
            + " only once this node's own connection to that address confirms it (a restarted node gets through on a later try)";
      } else if (restart && ofCurrent > 0) {
        refused = "it claims that " + remote + " restarted (uid " + previous + " is now " + peerUid + ") while a connection"
            + " of uid " + previous + " is open";
      } else if (!restart && lane == Lane.CONTROL && controlOwner != null) {
        owner = controlOwner;
        refused = "a control connection of " + remote + " (uid " + peerUid + ") is open already: a second one is refused";
      }
      if (refused == null) {
        if (previous != peerUid) {
          become(peerUid);
        }
        if (lane == Lane.CONTROL) {
          controlOwner = ch;
        }
        inbound.put(ch, peerUid);
        up();
      }
    }
    if (verify) {
      control.verify();
    }
    if (owner != null) {
      // The owner may be a connection that the peer lost without this end noticing (no close
      // arrived), and the peer now reconnects. A harmless write (the last acknowledgement again)
      // makes such a connection fail and close, so that the peer's next try gets through.
      owner.writeAndFlush(Wire.encodeSystemAck(owner.alloc(), inboundSequence.delivered(peerUid)), owner.voidPromise());
    }
    if (refused == null && previous != 0 && previous != peerUid) {
      restarted(previous, peerUid);
    }
    return refused;
  }

  /** Under this lock: incarnation {@code peerUid} is the peer's now. */
  private void become(long peerUid) {
    if (uid != 0) {
      replacedUids.add(uid);
    }
    uid = peerUid;
    confirmed = false;
    ofCurrent = 0;
    controlOwner = null;
  }

  /** Under this lock: a connection of the current incarnation completed its handshake. */
  private void up() {
    ofCurrent++;
    if (connections++ == 0 || down) {
      down = false;
      events.publish(new AssociatedEvent(remote)); // under the lock: events keep their order
      hooks.lifecycle(this, true, uid);
    }
  }

  /**
   * The peer restarted: what was sent to its old incarnation will never be delivered, and the old
   * incarnation's connections that are still open are closed.
   */
  private void restarted(long oldUid, long newUid) {
    for (OutboundEnvelope e : outbox.reset()) {
      hooks.dropped(e, remote + " restarted (uid " + oldUid + " is now " + newUid + ") before it acknowledged this system message");
    }
    hooks.incarnationGone(this, oldUid, "it restarted (uid " + oldUid + " is now " + newUid + ")");
    closeConnectionsOf(oldUid);
  }

  /** Closes every connection, either way, whose handshake named incarnation {@code peerUid}. */
  private void closeConnectionsOf(long peerUid) {
    for (OutboundLane l : lanes) {
      l.closeIfPeer(peerUid);
    }
    inbound.forEach(
        (ch, u) -> {
          if (u == peerUid) {
            ch.close();
          }
        });
  }

  /**
   * @return whether {@code ch}, an accepted control connection, owns the current incarnation's
   *     control stream: only its system messages and leaving notice count
   */
  public boolean ownsControl(Channel ch) {
    return controlOwner == ch;
  }

  /** An accepted connection closed (its handshake done or not). */
  public void inboundClosed(Channel ch) {
    inbound.remove(ch);
    if (controlOwner == ch) {
      synchronized (this) {
        if (controlOwner == ch) {
          controlOwner = null;
        }
      }
    }
  }

  /**
   * The owner of the control stream of incarnation {@code peerUid} said it leaves (its system
   * terminates): the connections to it are closed. Its unacknowledged system messages are not
   * thrown away yet: the numbering must go on for as long as that incarnation may still read them
   * (its actors stop after it said so); they are given up at the first failed connect instead.
   *
   * @return false, doing nothing, when {@code peerUid} is not the current incarnation
   */
  public boolean left(long peerUid) {
    synchronized (this) {
      if (peerUid == 0 || peerUid != uid) {
        return false;
      }
      leftUid = peerUid;
    }
    // Its end of every connection is closing: a message written into one now would be lost. The
    // closes are queued on the lanes' loops before the DisassociatedEvent is published, so whatever
    // is sent after that event goes on a new connection (to a restarted node, if there is one).
    for (OutboundLane l : lanes) {
      l.closeIfPeer(peerUid);
    }
    return true;
  }

  /**
   * A connect of the control lane failed: if the peer's incarnation said it leaves, it is gone,
   * and what waits for its acknowledgement is dropped quietly (a restarted node has a new uid and
   * starts a new sequence).
   */
  void unreachableAfterLeaving() {
    synchronized (this) {
      if (leftUid == 0 || leftUid != uid) {
        return;
      }
    }
    outbox.reset();
  }

  /** A connection with this node, of incarnation {@code peerUid}, that had completed its handshake closed. */
  public void connectionDown(long peerUid) {
    synchronized (this) {
      activeAt = clock.getAsLong();
      if (peerUid == uid && ofCurrent > 0) {
        ofCurrent--;
      }
      if (--connections == 0) {
        if (!down) {
          events.publish(new DisassociatedEvent(remote));
          hooks.lifecycle(this, false, uid);
        }
        down = false;
      }
    }
  }

  /** @return whether some connection with this node is open (its handshake done) */
  public boolean associated() {
    synchronized (this) {
      return connections > 0 && !down;
    }
  }

  /** @return the peer's current incarnation as last told by a handshake, 0 if none yet */
  public synchronized long uid() {
    return uid;
  }

  /** @return whether the current incarnation was acknowledged on a connection this node dialled */
  public synchronized boolean confirmed() {
    return confirmed;
  }

  /** @return how many replaced and quarantined incarnations are remembered, for tests and diagnostics */
  public synchronized int retainedUids() {
    return replacedUids.size() + quarantinedUids.size();
  }

  /** @return whether incarnation {@code peerUid} is quarantined */
  public synchronized boolean isQuarantined(long peerUid) {
    return quarantinedUids.contains(peerUid);
  }

  /**
   * The node is gone (it said so, or the failure detector decided): publishes {@link
   * DisassociatedEvent} unless already published.
   *
   * @return true the first time for the node's current incarnation
   */
  public boolean declareGone() {
    synchronized (this) {
      if (connections > 0 && !down) {
        down = true;
        events.publish(new DisassociatedEvent(remote));
        hooks.lifecycle(this, false, uid);
      }
      if (goneDeclared && goneUid == uid) {
        return false;
      }
      goneDeclared = true;
      goneUid = uid;
      return true;
    }
  }

  /**
   * Quarantines the peer's current incarnation (the one system messages were sent to): logged and
   * published once by the provider, the unacknowledged system messages dropped, its connections
   * closed, its actors' watchers told. Does nothing when the incarnation is not known yet (no
   * handshake ever completed: then nothing was delivered to anyone, and the messages are dropped)
   * or already quarantined.
   */
  public void quarantine(String why) {
    long q;
    boolean first;
    synchronized (this) {
      q = uid;
      first = q != 0 && quarantinedUids.add(q);
      if (first) {
        down = connections > 0;
      }
    }
    List<OutboundEnvelope> lost = outbox.reset();
    if (!first) { // never reached, or quarantined before: what waited since goes nowhere either
      for (OutboundEnvelope e : lost) {
        hooks.dropped(e, (q == 0 ? "no incarnation of " + remote + " could be reached: " : remote + " (uid " + q + ") is quarantined: ") + why);
      }
      hooks.incarnationGone(this, 0, why);
      return;
    }
    hooks.quarantined(this, q, why, lost);
    closeConnectionsOf(q);
  }

  /**
   * Quarantines incarnation {@code peerUid} of the peer, by request from outside remoting: as
   * {@link #quarantine(String)} when it is the current incarnation; else it is only remembered as
   * over, so that no connection of it is accepted or kept (its actors' watchers hear nothing: the
   * current incarnation's actors live on).
   *
   * @return whether {@code peerUid} was the current incarnation
   */
  public boolean quarantine(long peerUid, String why) {
    synchronized (this) {
      if (peerUid == 0 || peerUid != uid) {
        if (peerUid != 0) {
          quarantinedUids.add(peerUid);
        }
        return false;
      }
    }
    quarantine(why); // (a restart seen in this instant makes it the new one: the caller asked for the current one)
    return true;
  }

  // ------------------------------------------------------------------ sending system messages

  /** Any thread: sequences a system message and wakes the control lane. */
  public void sendSystem(OutboundEnvelope e) {
    long known = uid();
    if (known != 0 && isQuarantined(known)) { // until a handshake shows a new incarnation
      hooks.dropped(e, remote + " (uid " + known + ") is quarantined");
      hooks.incarnationGone(this, 0, "it is quarantined"); // a watch just made hears it at once
      return;
    }
    boolean wasRetired;
    boolean offered;
    synchronized (this) { // retireIfIdle checks the outbox under this lock: an offer cannot slip past it
      wasRetired = retired;
      offered = !wasRetired && outbox.offer(e, clock.getAsLong());
    }
    if (wasRetired) {
      Association next = successor();
      if (next == null) {
        hooks.dropped(e, "no association with " + remote + " can be made now (troupe.remote.advanced.maximum-associations)");
      } else {
        next.sendSystem(e);
      }
      return;
    }
    if (!offered) {
      hooks.dropped(e, "more than " + settings.systemMessageBufferSize() + " system messages to " + remote
          + " wait for acknowledgement (troupe.remote.advanced.system-message-buffer-size)");
      quarantine("its system-message buffer overflowed (" + settings.systemMessageBufferSize()
          + " unacknowledged; troupe.remote.advanced.system-message-buffer-size)");
      return;
    }
    startResendTimer();
    control.wakeUp();
  }

  /** The peer acknowledged every system message up to {@code upTo}; on the control lane's loop. */
  void acked(long upTo) {
    outbox.acked(upTo, clock.getAsLong());
  }

  private void startResendTimer() {
    synchronized (this) {
      if (resendTimer != null) {
        return;
      }
      long every = settings.systemMessageResendInterval().toNanos();
      try {
        resendTimer = control.loop().scheduleAtFixedRate(this::resendTick, every, every, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException terminated) {
        // the network threads are gone: nothing can be resent anyway
      }
    }
  }

  /** On the control lane's loop, every resend interval while something waits for acknowledgement. */
  private void resendTick() {
    synchronized (this) {
      if (!outbox.waiting()) { // offer's timer start is under this lock too: no message is left without a timer
        resendTimer.cancel(false);
        resendTimer = null;
        return;
      }
    }
    long waited = outbox.oldestWaitNanos(clock.getAsLong());
    if (waited >= settings.giveUpSystemMessageAfter().toNanos()) {
      quarantine("no system message was acknowledged for " + TimeUnit.NANOSECONDS.toMillis(waited)
          + " ms (troupe.remote.advanced.give-up-system-message-after = " + settings.giveUpSystemMessageAfter() + ")");
    } else if (waited >= settings.systemMessageResendInterval().toNanos()) {
      outbox.rewind();
      control.wakeUp();
    }
  }

  /** The system terminates: no more resends. */
  public synchronized void stopTimers() {
    if (resendTimer != null) {
      resendTimer.cancel(false);
      resendTimer = null;
    }
  }

  // ------------------------------------------------------------------ receiving system messages

  /** The receiving half of exactly-once system messages from this peer. */
  public InboundSystemSequence inbound() {
    return inboundSequence;
  }

  @Override
  public String toString() {
    return "Association[" + remote + "]";
  }
}
