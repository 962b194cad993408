package dev.troupe.cluster.spi;

import java.util.List;

/**
 * One node's membership engine: joins a group, reports its views and suspicions, leaves.
 *
 * <p>Seeds are Troupe addresses; engines have endpoints of their own (JGroups: a TCP host and
 * port). The cluster learns a seed's engine endpoint from the seed itself (over remoting) and
 * passes the endpoints it learned to {@link #join}; each node advertises the endpoint {@code join}
 * returns.
 *
 * <p>Thread-safety: {@code join}, {@code leave} and {@code close} are called by the cluster one at a
 * time. The engine calls its {@link MembershipListener} one call at a time, never concurrently and
 * never from inside {@code join}, {@code leave} or {@code close}'s caller's stack.
 */
public interface MembershipProvider extends AutoCloseable {
  /**
   * Joins the group reachable through any of {@code seedEndpoints}, or founds a new group when the
   * list is empty (the first seed). From then on the engine reports to {@code listener}; its first
   * report is a view that holds this node.
   *
   * @param seedEndpoints engine endpoints of members already in the group, in the form {@link
   *     #join} returns them; malformed ones are refused with an {@link IllegalArgumentException}
   * @param listener where views and suspicions go
   * @return this node's engine endpoint, which nodes joining through it will be given
   * @throws Exception when the engine cannot start (e.g. its port is taken) or reaches no member
   *     through the endpoints; the engine is then as before the call, and the cluster calls {@code
   *     join} again at its next seed round
   */
  String join(List<String> seedEndpoints, MembershipListener listener) throws Exception;

  /**
   * Leaves the group gracefully: the other members' next view lacks this node, and this node gets
   * no further reports. Returns once the engine has left (bounded by the engine's own timeouts).
   */
  void leave();

  /** Stops the engine at once, without leaving (others find out through failure detection). */
  @Override
  void close();
}
