package dev.troupe.cluster.internal.jgroups;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.FD_ALL3;

/**
 * JGroups' FD_ALL3, unchanged on the wire, that also remembers when it last heard each member of
 * the current view: a heartbeat, any other message, or VERIFY_SUSPECT's word that the member
 * answered. {@link SuspicionTap} reads it to keep a confirmed suspicion from excluding a member
 * that was heard while it was being verified (see there).
 *
 * <p>What it keeps is bounded by the view: one entry per member, made when a view holds the member
 * and dropped with the view that drops it; a message from anyone else records nothing. The cost
 * per message is one map write, on the engine's own small traffic.
 *
 * <p>It takes the protocol id of FD_ALL3, so its headers are FD_ALL3's and it interoperates with a
 * plain FD_ALL3.
 */
final class HeardHeartbeats extends FD_ALL3 {
  /** A member of the view not heard since it came in. */
  private static final long NEVER = Long.MIN_VALUE;

  private final ConcurrentHashMap<Address, Long> lastHeard = new ConcurrentHashMap<>();

  HeardHeartbeats() {
    setId(ClassConfigurator.getProtocolId(FD_ALL3.class));
  }

  @Override
  protected void update(Address sender, boolean logMsg, boolean skipIfExists) {
    super.update(sender, logMsg, skipIfExists);
    if (!skipIfExists && sender != null) {
      lastHeard.replace(sender, System.nanoTime()); // members of the view only
    }
  }

  @Override
  protected void handleViewChange(View v) {
    List<Address> members = v.getMembers();
    lastHeard.keySet().retainAll(members);
    for (Address m : members) {
      lastHeard.putIfAbsent(m, NEVER);
    }
    super.handleViewChange(v);
  }

  /**
   * @param member a member of the view
   * @param windowNanos how far back
   * @return whether anything was heard from it within the last {@code windowNanos}
   */
  boolean heardWithin(Address member, long windowNanos) {
    Long at = lastHeard.get(member);
    return at != null && at != NEVER && System.nanoTime() - at <= windowNanos;
  }
}
