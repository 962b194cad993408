package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.AbstractActorWithTimers;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.ReceiveTimeout;
import dev.troupe.actor.Terminated;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.sharding.ClusterShardingSettings;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.remote.Dropped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A shard region: routes each message to the region that owns its shard, hosts the shards it owns
 * (child {@link ShardActor}s), and hands shards over when the {@link ShardingTopology} changes. A
 * proxy ({@code self} null) hosts nothing and only routes.
 *
 * <h2>Placement</h2>
 *
 * The owner of a shard is {@link Placement#owner} over the view's members that are not leaving. A
 * message for a shard this region owns and hosts goes to the shard child (the local path, no
 * serialization); for a shard another member owns, to that member's region as it is; for a shard
 * not placeable yet, into the shard's buffer.
 *
 * <h2>Hand-over</h2>
 *
 * On a new view, every region at once tells each shard it no longer owns to hand off (the shard
 * stops its entities after the messages already queued, and sends what arrives later back here, to
 * be routed to the new owner), and asks every other member's region {@link Protocol.HandOverQuery
 * HandOverQuery(version, owners)}. A region answers a query with {@link Protocol.HandOverDone
 * HandOverDone(version)}, in the asker's numbering, once its own view has the same owners and it
 * hosts no shard it does not own (versions count each node's own view changes, so a node that joined
 * later numbers the same views differently; the owners are what they agree on). It keeps one
 * unanswered query per asker, and from askers not in its view (a joiner whose view is still on its
 * way) at most {@link #MAX_EARLY_QUERIES}, each through one more view only, so that no peer's
 * queries can grow it without bound. A region starts a
 * shard it owns only when no other member may still host it: a peer may host shard {@code s} if it
 * is in the current view, has not answered done for the current version, and owned {@code s} in some
 * view since the last version it answered done for (or was there before this region's first view,
 * when nothing is known of it). A member that joins takes its share as soon as the previous owners
 * answered: it never holds up the others (it hosted nothing before).
 * Until then the shard's messages are held, in order, up to {@code buffer-size} per shard (beyond
 * that: a {@link Dropped} event and a count). A peer that drops out of the view (removed) no longer
 * holds anything up; after {@code hand-over-timeout} a view's pending reports are taken as given.
 * With every region fed the same views, this gives at most one live entity per id, and all moved
 * shards move in one step.
 *
 * <h2>Leaving</h2>
 *
 * A leaving region answers {@link WhenHandedOver} (which lets its node exit) only when, besides
 * hosting nothing, no message can still be on its way to or from it: it sends every other member's
 * region a {@link Protocol.LeaveCheck}, which each answers once its own view no longer has the
 * leaver as an owner (so the peer routes nothing more to it, and what it routed there earlier
 * arrived first) and after the messages the leaver forwarded to it before the check (same sender,
 * same receiver: in order). Messages that reach the leaver meanwhile are forwarded to their new
 * owners, and the check runs again until a whole round passes with nothing forwarded (at most three
 * rounds: later forwards come from senders outside the views). Without it, a
 * peer whose view lags behind keeps sending the leaver's shards to the leaver, whose node may have
 * exited by the time they arrive. A peer that does not answer within {@code leave-check-timeout}
 * (cut off, or gone: it cannot send anything here either) is not waited for again.
 *
 * <p>All state is the actor's own (actor thread only).
 *
 * <p>One file on purpose (past 700 lines): routing, buffering, the hand-over and the leave check
 * all read and change the same per-shard state (owner, buffer, stopping set) on one actor thread,
 * and each step of the hand-over is only correct next to the routing rule it protects; what stands
 * alone already lives apart ({@link Placement}, {@link Protocol}, {@link ShardActor}).
 */
public final class RegionActor extends AbstractActorWithTimers {
  private final String typeName;
  private final Props entityProps;
  private final ClusterShardingSettings settings;
  private final ShardRegion.MessageExtractor extractor;
  private final UniqueAddress self; // null: a proxy
  private final ShardingTopology topology;
  private final Object handOffStopMessage;

  // the current view
  private long version = Long.MIN_VALUE;
  private Placement placement = new Placement(List.of());
  /** Whether this region owns shards in the current view (a member, not leaving). */
  private boolean selfOwner;
  private final Map<UniqueAddress, ActorRef> present = new LinkedHashMap<>();
  /** version -> placement, for the views since the oldest report a present peer still owes. */
  private final TreeMap<Long, Placement> history = new TreeMap<>();
  /** The highest version each peer reported done for. */
  private final Map<UniqueAddress, Long> doneVersion = new HashMap<>();
  /** The version of the view this region first saw each peer in; absent: in its first view. */
  private final Map<UniqueAddress, Long> joinedAt = new HashMap<>();
  /** The latest hand-over query of each peer not answered yet (its owners differ from this view's, or shards are stopping). */
  private final Map<UniqueAddress, PendingQuery> handOverQueries = new HashMap<>();
  /** The view version for which this region asked each peer again (once per version: see onHandOverQuery). */
  private final Map<UniqueAddress, Long> askedAgain = new HashMap<>();

  // shards
  private final Map<String, ActorRef> hosted = new HashMap<>();
  private final Map<ActorRef, String> shardIdsByRef = new HashMap<>();
  private final Set<String> stopping = new HashSet<>();
  private final Map<String, ActorRef> remoteRoutes = new HashMap<>();
  private final Map<String, ArrayDeque<Protocol.Buffered>> buffers = new LinkedHashMap<>();
  private int bufferedMessages;
  private long dropped;
  private int queries;
  private final List<ActorRef> handOverWaiters = new ArrayList<>();

  // leaving: the check that nothing is still on its way to or from this region
  /** The members that own shards in the current view. */
  private final Set<UniqueAddress> owners = new HashSet<>();
  private long checkRound;
  /** The peers that have not answered the current round's {@link Protocol.LeaveCheck} yet. */
  private final Set<UniqueAddress> checkPending = new HashSet<>();
  /** Whether a round is due: none passed yet, or a message was forwarded or the view changed since. */
  private boolean recheck = true;
  /** Checks from leavers this region still has as owners, answered on the view that drops them. */
  private final Map<UniqueAddress, PendingCheck> checksToAnswer = new HashMap<>();
  /**
   * Rounds after which the check ends even if something was forwarded meanwhile: the first round
   * covers what the peers routed here, the second what this region forwarded during the first;
   * later forwards come from senders outside the views (proxies, refs kept by clients), which no
   * round can outwait.
   */
  private static final int MAX_CHECK_ROUNDS = 3;
  /** Peers that did not answer a check within {@code leave-check-timeout}: not asked again. */
  private final Set<UniqueAddress> silent = new HashSet<>();

  private record PendingCheck(Protocol.LeaveCheck check, ActorRef replyTo) {}

  /** A peer's query not answered yet; {@code keptSince}: this region's view version when it first came. */
  private record PendingQuery(long version, Set<UniqueAddress> owners, ActorRef replyTo, long keptSince) {}

  /** Queries kept at most from nodes not in this region's view (see {@link #roomForAnEarlyQuery}). */
  static final int MAX_EARLY_QUERIES = 8;

  /** From a region to itself: {@code leave-check-timeout} passed for a check round. */
  private record LeaveCheckTimeout(long round) {}

  private RegionActor(String typeName, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, UniqueAddress self, ShardingTopology topology,
      Object handOffStopMessage) {
    this.handOffStopMessage = handOffStopMessage;
    this.typeName = typeName;
    this.entityProps = entityProps;
    this.settings = settings;
    this.extractor = extractor;
    this.self = self;
    this.topology = topology;
  }

  /**
   * @param typeName the entity type
   * @param entityProps the entities' props
   * @param settings the type's settings
   * @param extractor reads the messages
   * @param self this node in the views
   * @param topology the members with regions of the type
   * @return the props of a region that hosts shards
   */
  public static Props props(String typeName, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, UniqueAddress self, ShardingTopology topology) {
    return props(typeName, entityProps, settings, extractor, self, topology, PoisonPill.getInstance());
  }

  /**
   * @param typeName the entity type
   * @param entityProps the entities' props
   * @param settings the type's settings
   * @param extractor reads the messages
   * @param self this node in the views
   * @param topology the members with regions of the type
   * @param handOffStopMessage what each entity of a shard handed over is told (after the messages
   *     already queued for it); it must make the entity stop
   * @return the props of a region that hosts shards
   */
  public static Props props(String typeName, Props entityProps, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, UniqueAddress self, ShardingTopology topology,
      Object handOffStopMessage) {
    Objects.requireNonNull(handOffStopMessage, "handOffStopMessage");
    return Props.create(RegionActor.class,
        () -> new RegionActor(typeName, entityProps, settings, extractor, self, topology, handOffStopMessage));
  }

  /**
   * @param typeName the entity type
   * @param settings the type's settings (buffer size, hand-over timeout)
   * @param extractor reads the messages
   * @param topology the members with regions of the type
   * @return the props of a proxy region: it routes, hosts nothing
   */
  public static Props proxyProps(String typeName, ClusterShardingSettings settings,
      ShardRegion.MessageExtractor extractor, ShardingTopology topology) {
    return Props.create(RegionActor.class,
        () -> new RegionActor(typeName, null, settings, extractor, null, topology, PoisonPill.getInstance()));
  }

  @Override
  public void preStart() {
    topology.subscribe(getSelf());
  }

  @Override
  public void postStop() {
    topology.unsubscribe(getSelf());
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(ShardingTopology.View.class, this::onView)
        .match(Protocol.HandOverQuery.class, this::onHandOverQuery)
        .match(Protocol.HandOverDone.class, this::onHandOverDone)
        .match(Protocol.HandOverTimeout.class, this::onHandOverTimeout)
        .match(Protocol.LeaveCheck.class, this::onLeaveCheck)
        .match(Protocol.LeaveChecked.class, this::onLeaveChecked)
        .match(LeaveCheckTimeout.class, this::onLeaveCheckTimeout)
        .match(Terminated.class, this::onTerminated)
        .match(ShardRegion.GetCurrentRegions.class, m -> getSender().tell(currentRegions(), getSelf()))
        .match(ShardRegion.GetShardRegionState.class, m -> onGetState())
        .matchEquals(Protocol.GetStats.INSTANCE, m -> getSender().tell(
            new Protocol.Stats(hosted.size(), stopping.size(), bufferedMessages, dropped, handOverQueries.size()), getSelf()))
        .matchEquals(WhenHandedOver.INSTANCE, m -> {
          handOverWaiters.add(getSender());
          answerHandOverWaiters();
        })
        .matchAny(this::onMessage)
        .build();
  }

  // ------------------------------------------------------------------ routing (the hot path)

  private void onMessage(Object message) {
    ActorRef sender = getSender();
    String shardId;
    try {
      shardId = extractor.shardId(message);
    } catch (RuntimeException e) {
      drop(message, sender, "the extractor failed on it: " + e);
      return;
    }
    if (shardId == null || shardId.isEmpty()) {
      drop(message, sender, "the extractor gave no shard id");
      return;
    }
    ActorRef shard = hosted.get(shardId);
    if (shard != null) {
      shard.tell(message, sender);
      return;
    }
    ActorRef remote = remoteRoutes.get(shardId);
    if (remote != null) {
      remote.tell(message, sender);
      return;
    }
    ArrayDeque<Protocol.Buffered> buffer = buffers.get(shardId);
    if (buffer != null) {
      hold(shardId, buffer, message, sender);
      return;
    }
    route(shardId, message, sender);
  }

  /** The first message for a shard since the last view change. */
  private void route(String shardId, Object message, ActorRef sender) {
    UniqueAddress owner = placement.owner(shardId);
    if (owner == null || (owner.equals(self) && blocked(shardId))) {
      ArrayDeque<Protocol.Buffered> buffer = new ArrayDeque<>();
      buffers.put(shardId, buffer);
      hold(shardId, buffer, message, sender);
    } else if (owner.equals(self)) {
      startShard(shardId).tell(message, sender);
    } else {
      ActorRef region = present.get(owner);
      remoteRoutes.put(shardId, region);
      region.tell(message, sender);
      if (!selfOwner) {
        recheck = true; // a leaver forwarded it: a check round must come after it
      }
    }
  }

  private ActorRef startShard(String shardId) {
    ActorRef shard = getContext().actorOf(
        ShardActor.props(typeName, shardId, entityProps, settings, extractor, handOffStopMessage),
        URLEncoder.encode(shardId, StandardCharsets.UTF_8));
    getContext().watch(shard);
    hosted.put(shardId, shard);
    shardIdsByRef.put(shard, shardId);
    return shard;
  }

  private void hold(String shardId, ArrayDeque<Protocol.Buffered> buffer, Object message, ActorRef sender) {
    if (buffer.size() >= settings.bufferSize()) {
      dropped++;
      drop(message, sender, "buffer of shard " + shardId + " is full (buffer-size = " + settings.bufferSize()
          + "), the shard is in hand-over or has no owner");
      if (dropped == 1 || dropped % 1000 == 0) {
        getContext().getLog().warning("sharding type '{}': {} message(s) dropped so far, buffers full", typeName,
            dropped);
      }
      return;
    }
    buffer.add(new Protocol.Buffered(message, sender));
    bufferedMessages++;
  }

  private void drop(Object message, ActorRef sender, String why) {
    getContext().getSystem().getEventStream().publish(
        new Dropped(message, "sharding type '" + typeName + "': " + why, sender, getSelf()));
  }

  /**
   * Whether a peer may still host {@code shardId}, or this region is still stopping its own copy.
   */
  private boolean blocked(String shardId) {
    if (stopping.contains(shardId)) {
      return true;
    }
    for (UniqueAddress peer : present.keySet()) {
      if (peer.equals(self)) {
        continue;
      }
      long done = doneVersion.getOrDefault(peer, Long.MIN_VALUE);
      if (done >= version) {
        continue;
      }
      long since = Math.max(done, joinedAt.getOrDefault(peer, Long.MIN_VALUE));
      if (since < history.firstKey()) {
        // its last report is older than the views this region remembers (it was there before this
        // region's first view, or its reports lag behind the pruned history): it may host anything
        return true;
      }
      for (Placement p : history.subMap(since, true, version, false).values()) {
        if (peer.equals(p.owner(shardId))) {
          return true;
        }
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ topology changes

  private void onView(ShardingTopology.View view) {
    if (view.version() <= version) {
      return;
    }
    boolean first = version == Long.MIN_VALUE;
    long previousVersion = version;
    version = view.version();
    List<UniqueAddress> ownerList = new ArrayList<>();
    Set<UniqueAddress> before = new HashSet<>(present.keySet());
    present.clear();
    for (ShardingTopology.RegionMember m : view.members()) {
      present.put(m.node(), m.region());
      if (!m.leaving()) {
        ownerList.add(m.node());
      }
      if (!first && !before.contains(m.node()) && !joinedAt.containsKey(m.node())) {
        joinedAt.put(m.node(), version);
      }
    }
    doneVersion.keySet().retainAll(present.keySet());
    joinedAt.keySet().retainAll(present.keySet());
    for (UniqueAddress gone : before) {
      if (!present.containsKey(gone)) {
        handOverQueries.remove(gone); // removed: nobody waits for an answer any more
      }
    }
    // a query from a node in no view of this region: kept through the next view only (its asker may
    // be a member this region has not heard of yet; one in neither view is gone, or never was)
    handOverQueries.entrySet().removeIf(e -> !present.containsKey(e.getKey()) && e.getValue().keptSince() < previousVersion);
    placement = new Placement(ownerList);
    owners.clear();
    owners.addAll(ownerList);
    selfOwner = self != null && owners.contains(self);
    checkPending.retainAll(present.keySet());
    silent.retainAll(present.keySet());
    recheck = true;
    history.put(version, placement);
    remoteRoutes.clear();

    // stop every hosted shard this region no longer owns, all at once
    for (Iterator<Map.Entry<String, ActorRef>> it = hosted.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, ActorRef> e = it.next();
      if (self == null || !self.equals(placement.owner(e.getKey()))) {
        it.remove();
        stopping.add(e.getKey());
        e.getValue().tell(Protocol.HandOff.INSTANCE, getSelf());
        ShardingHooks.handedOff(getContext().getSystem());
      }
    }
    getTimers().startSingleTimer(new Protocol.HandOverTimeout(version), new Protocol.HandOverTimeout(version),
        settings.handOverTimeout());
    askedAgain.keySet().retainAll(present.keySet());
    if (selfOwner) {
      Protocol.HandOverQuery query = handOverQuery();
      for (Map.Entry<UniqueAddress, ActorRef> e : present.entrySet()) {
        if (!e.getKey().equals(self)) {
          e.getValue().tell(query, getSelf());
        }
      }
    }
    reportDoneIfIdle();
    releaseBuffers();
    pruneHistory();
    answerLeaveChecks();
  }

  private void onHandOverQuery(Protocol.HandOverQuery q) {
    if (self == null) {
      return; // a proxy is in no view: nobody asks it
    }
    PendingQuery previous = handOverQueries.get(q.from());
    if (!present.containsKey(q.from()) && previous == null && !roomForAnEarlyQuery()) {
      return;
    }
    if (previous == null || previous.version() < q.version()) {
      long keptSince = previous == null ? version : previous.keptSince();
      handOverQueries.put(q.from(), new PendingQuery(q.version(), Set.copyOf(q.owners()), getSender(), keptSince));
      answerHandOverQueries();
    }
    // this region's own query may have reached the asker before its region was started (and been
    // lost): if it still waits for the asker's answer, it asks again, once per view
    if (selfOwner && present.containsKey(q.from()) && doneVersion.getOrDefault(q.from(), Long.MIN_VALUE) < version
        && !Long.valueOf(version).equals(askedAgain.get(q.from()))) {
      askedAgain.put(q.from(), version);
      getSender().tell(handOverQuery(), getSelf());
    }
  }

  /**
   * Whether a query from a node that is not in this region's view may wait here for a view that
   * holds its asker (a member that joined in a view still on its way here): while fewer than {@link
   * #MAX_EARLY_QUERIES} such queries wait. Each waits through the next view at most (see onView).
   * What peers send can thus never grow the map without bound; an asker whose query was ignored
   * asks again when this region's own query reaches it, or starts its shards at its hand-over
   * timeout.
   */
  private boolean roomForAnEarlyQuery() {
    int early = 0;
    for (UniqueAddress asker : handOverQueries.keySet()) {
      if (!present.containsKey(asker)) {
        early++;
      }
    }
    return early < MAX_EARLY_QUERIES;
  }

  private Protocol.HandOverQuery handOverQuery() {
    return new Protocol.HandOverQuery(version, self, List.copyOf(owners));
  }

  private void onHandOverDone(Protocol.HandOverDone done) {
    if (done.version() > version) {
      return; // not a version of this region's (a peer cannot answer a view it was not asked about)
    }
    doneVersion.merge(done.from(), done.version(), Math::max);
    releaseBuffers();
    pruneHistory();
  }

  private void onHandOverTimeout(Protocol.HandOverTimeout t) {
    List<UniqueAddress> late = new ArrayList<>();
    for (UniqueAddress peer : present.keySet()) {
      if (!peer.equals(self) && doneVersion.getOrDefault(peer, Long.MIN_VALUE) < t.version()) {
        late.add(peer);
        doneVersion.put(peer, t.version());
      }
    }
    if (!late.isEmpty()) {
      getContext().getLog().warning("sharding type '{}': no hand-over report for view {} from {} within {};"
          + " starting their shards here anyway", typeName, t.version(), late, settings.handOverTimeout());
      releaseBuffers();
      pruneHistory();
    }
  }

  private void onTerminated(Terminated t) {
    String shardId = shardIdsByRef.remove(t.actor());
    if (shardId == null) {
      return;
    }
    if (stopping.remove(shardId)) {
      reportDoneIfIdle();
    } else {
      hosted.remove(shardId); // stopped by itself (it does not, but a shard that is gone is not hosted)
    }
    releaseBuffers();
  }

  /**
   * Asks a region to answer {@link HandedOver} once its view no longer has it as an owner (it is
   * leaving, or not a member), it hosts no shard, and it has stopped every shard it handed over: the
   * cluster wiring asks a leaving member's regions before it lets the member exit (dropping it from
   * the views earlier would let its successors start entities it still runs). A proxy answers at once.
   */
  public enum WhenHandedOver {
    INSTANCE
  }

  /**
   * The answer to {@link WhenHandedOver}.
   *
   * @param version the view the region had then
   */
  public record HandedOver(long version) {}

  private void answerHandOverWaiters() {
    if (!handOverWaiters.isEmpty() && !selfOwner && hosted.isEmpty() && stopping.isEmpty() && leaveChecked()) {
      for (ActorRef w : handOverWaiters) {
        w.tell(new HandedOver(version), getSelf());
      }
      handOverWaiters.clear();
    }
  }

  /**
   * Whether the last check round passed with nothing forwarded or changed since; if not, and no
   * round is running, starts one (a proxy hosts nothing and is checked at once).
   */
  private boolean leaveChecked() {
    if (self == null) {
      return true;
    }
    if (!checkPending.isEmpty()) {
      return false;
    }
    if (!recheck || checkRound >= MAX_CHECK_ROUNDS) {
      return true;
    }
    checkRound++;
    recheck = false;
    // the next message of each shard goes through route() again, which notes the forward
    remoteRoutes.clear();
    Protocol.LeaveCheck check = new Protocol.LeaveCheck(checkRound, self);
    for (Map.Entry<UniqueAddress, ActorRef> e : present.entrySet()) {
      if (!e.getKey().equals(self) && !silent.contains(e.getKey())) {
        checkPending.add(e.getKey());
        e.getValue().tell(check, getSelf());
      }
    }
    if (!checkPending.isEmpty()) {
      getTimers().startSingleTimer(LeaveCheckTimeout.class, new LeaveCheckTimeout(checkRound),
          settings.leaveCheckTimeout());
    }
    return checkPending.isEmpty();
  }

  private void onLeaveCheckTimeout(LeaveCheckTimeout t) {
    if (t.round() == checkRound && !checkPending.isEmpty()) {
      getContext().getLog().warning("sharding type '{}': no answer to the leave check from {} within {}"
          + " (leave-check-timeout); not waiting for them any more", typeName, checkPending,
          settings.leaveCheckTimeout());
      silent.addAll(checkPending);
      checkPending.clear();
      answerHandOverWaiters();
    }
  }

  private void onLeaveCheck(Protocol.LeaveCheck c) {
    if (self == null) {
      return; // a proxy is in no view: no leaver waits for it
    }
    if (owners.contains(c.from())) {
      checksToAnswer.put(c.from(), new PendingCheck(c, getSender())); // answered on the view that drops it
    } else {
      getSender().tell(new Protocol.LeaveChecked(c.round(), self), getSelf());
    }
  }

  /** Answers the checks of the leavers the current view no longer has as owners. */
  private void answerLeaveChecks() {
    if (checksToAnswer.isEmpty()) {
      return;
    }
    for (Iterator<Map.Entry<UniqueAddress, PendingCheck>> it = checksToAnswer.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<UniqueAddress, PendingCheck> e = it.next();
      if (!owners.contains(e.getKey())) {
        it.remove();
        e.getValue().replyTo().tell(new Protocol.LeaveChecked(e.getValue().check().round(), self), getSelf());
      }
    }
  }

  private void onLeaveChecked(Protocol.LeaveChecked c) {
    if (c.round() == checkRound && checkPending.remove(c.from()) && checkPending.isEmpty()) {
      answerHandOverWaiters(); // or the next round, if something was forwarded meanwhile
    }
  }

  private void reportDoneIfIdle() {
    answerHandOverWaiters();
    answerHandOverQueries();
  }

  /**
   * Answers the peers' hand-over queries whose owners are this view's owners, if this region hosts
   * no shard it does not own (it stops every such shard on the view change, so none is stopping).
   */
  private void answerHandOverQueries() {
    if (self == null || !stopping.isEmpty() || handOverQueries.isEmpty() || version == Long.MIN_VALUE) {
      return;
    }
    for (Iterator<Map.Entry<UniqueAddress, PendingQuery>> it = handOverQueries.entrySet().iterator(); it.hasNext(); ) {
      PendingQuery q = it.next().getValue();
      if (q.owners().equals(owners)) {
        it.remove();
        q.replyTo().tell(new Protocol.HandOverDone(q.version(), self), getSelf());
      }
    }
  }

  /** Routes every buffered shard that can go now: to its new owner, or to a shard started here. */
  private void releaseBuffers() {
    if (buffers.isEmpty() || placement.isEmpty()) {
      return;
    }
    for (Iterator<Map.Entry<String, ArrayDeque<Protocol.Buffered>>> it = buffers.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, ArrayDeque<Protocol.Buffered>> e = it.next();
      String shardId = e.getKey();
      UniqueAddress owner = placement.owner(shardId);
      ActorRef target;
      if (!owner.equals(self)) {
        target = present.get(owner);
        remoteRoutes.put(shardId, target);
        if (!selfOwner) {
          recheck = true;
        }
      } else if (!blocked(shardId)) {
        target = startShard(shardId);
      } else {
        continue;
      }
      it.remove();
      bufferedMessages -= e.getValue().size();
      for (Protocol.Buffered b : e.getValue()) {
        target.tell(b.message(), b.sender());
      }
    }
  }

  /** Forgets the views no present peer's pending report can refer to. */
  private void pruneHistory() {
    long keepFrom = version;
    for (UniqueAddress peer : present.keySet()) {
      if (peer.equals(self)) {
        continue;
      }
      long since = Math.max(doneVersion.getOrDefault(peer, Long.MIN_VALUE), joinedAt.getOrDefault(peer,
          Long.MIN_VALUE));
      if (since != Long.MIN_VALUE) {
        keepFrom = Math.min(keepFrom, since);
      }
    }
    history.headMap(keepFrom, false).clear();
  }

  // ------------------------------------------------------------------ queries

  private ShardRegion.CurrentRegions currentRegions() {
    Set<Address> addresses = new HashSet<>();
    for (UniqueAddress a : present.keySet()) {
      addresses.add(a.address());
    }
    return new ShardRegion.CurrentRegions(addresses);
  }

  private void onGetState() {
    if (hosted.isEmpty()) {
      getSender().tell(new ShardRegion.CurrentShardRegionState(Set.of()), getSelf());
      return;
    }
    ActorRef replyTo = getSender();
    int expected = hosted.size();
    // '~' never appears in a shard's child name (URL-encoded), so the names cannot clash
    ActorRef query = getContext().actorOf(
        Props.create(StateQuery.class, () -> new StateQuery(replyTo, expected)), "~query-" + (++queries));
    for (ActorRef shard : hosted.values()) {
      shard.tell(Protocol.GetShardState.INSTANCE, query);
    }
  }

  /** Collects the shards' states for one {@code GetShardRegionState}; answers with what it has after 5s. */
  static final class StateQuery extends AbstractActor {
    private final ActorRef replyTo;
    private final int expected;
    private final Set<ShardRegion.ShardState> states = new HashSet<>();

    StateQuery(ActorRef replyTo, int expected) {
      this.replyTo = replyTo;
      this.expected = expected;
    }

    @Override
    public void preStart() {
      getContext().setReceiveTimeout(Duration.ofSeconds(5));
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(ShardRegion.ShardState.class, s -> {
            states.add(s);
            if (states.size() == expected) {
              finish();
            }
          })
          .match(ReceiveTimeout.class, t -> finish())
          .build();
    }

    private void finish() {
      replyTo.tell(new ShardRegion.CurrentShardRegionState(states), getContext().getParent());
      getContext().stop(getSelf());
    }
  }

  @Override
  public String toString() {
    return "ShardRegion(" + typeName + (self == null ? ", proxy" : ", " + self) + ")";
  }
}
