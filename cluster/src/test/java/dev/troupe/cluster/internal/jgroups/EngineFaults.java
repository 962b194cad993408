package dev.troupe.cluster.internal.jgroups;

import dev.troupe.cluster.spi.MembershipProvider;
import java.util.Collection;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TP;
import org.jgroups.stack.ProtocolStack;

/**
 * The test seam into a running JGroups engine, for partition tests: it cuts the engine's traffic
 * with chosen members and heals it, with JGroups' own {@link DISCARD} protocol put into the running
 * stack just above the transport, and runs a round of MERGE3 at once instead of after its interval.
 *
 * <p>{@code DISCARD}'s ignore list drops what comes <em>from</em> the listed members (everything
 * above the transport: views, heartbeats, verification, merge announcements); a cut between two
 * sides ignores the other side on every member of both, so neither hears the other. The TCP
 * connections of the transport and of FD_SOCK2 stay open, as they would through a switch that
 * stopped forwarding: only missed heartbeats (FD_ALL3 and VERIFY_SUSPECT) find the other side
 * gone, as after a cut cable. Nothing here is in the engine's main code: it reaches the channel
 * through {@link JGroupsMembershipProvider#channel()}, package-private.
 */
public final class EngineFaults {
  private EngineFaults() {}

  /** @return the running channel of {@code engine}, a JGroups engine that has joined */
  public static JChannel channel(MembershipProvider engine) {
    JChannel ch = ((JGroupsMembershipProvider) engine).channel();
    if (ch == null) {
      throw new IllegalStateException("the engine has not joined: " + engine);
    }
    return ch;
  }

  /** @return the engine's member address in JGroups (its identity) */
  public static Address address(MembershipProvider engine) {
    return channel(engine).getAddress();
  }

  /** @return the engine's endpoint ({@code host:port}), for another engine to join through */
  public static String endpoint(MembershipProvider engine) {
    return ((JGroupsMembershipProvider) engine).endpoint();
  }

  /** @return the engine's current view, in JGroups' order */
  public static List<Address> view(MembershipProvider engine) {
    View v = channel(engine).getView();
    return v == null ? List.of() : v.getMembers();
  }

  /**
   * Puts the (still empty) {@code DISCARD} into {@code engine}'s running stack now, so that a later
   * cut only adds to its list: no change to the stack while the cut is being made.
   */
  public static void prepare(MembershipProvider engine) {
    discard(channel(engine));
  }

  /** From now on, {@code engine} drops whatever comes from {@code members}. */
  public static void ignore(MembershipProvider engine, Collection<Address> members) {
    discard(channel(engine)).addIgnoredMembers(members.toArray(Address[]::new));
  }

  /** Heals every cut of {@code engine}: it hears every member again. */
  public static void hearAll(MembershipProvider engine) {
    DISCARD d = channel(engine).getProtocolStack().findProtocol(DISCARD.class);
    if (d != null) {
      d.resetIgnoredMembers();
    }
  }

  /**
   * One MERGE3 round now on {@code engine}: it announces its view to every member it knows of, then
   * (if it is a coordinator) looks for views that differ and starts a merge. Call it on every
   * engine, announcing first everywhere, to heal without waiting for MERGE3's timers.
   */
  public static void announceView(MembershipProvider engine) {
    channel(engine).getProtocolStack().<MERGE3>findProtocol(MERGE3.class).sendInfo();
  }

  /** The second half of a MERGE3 round, see {@link #announceView}. */
  public static void checkViews(MembershipProvider engine) {
    channel(engine).getProtocolStack().<MERGE3>findProtocol(MERGE3.class).checkInconsistencies();
  }

  /** The channel's DISCARD, put just above the transport the first time. */
  private static synchronized DISCARD discard(JChannel ch) {
    ProtocolStack stack = ch.getProtocolStack();
    DISCARD d = stack.findProtocol(DISCARD.class);
    if (d == null) {
      d = new DISCARD();
      d.setAddress(ch.getAddress());
      try {
        stack.insertProtocol(d, ProtocolStack.Position.ABOVE, TP.class);
      } catch (Exception e) {
        throw new IllegalStateException("cannot put DISCARD into the engine's stack", e);
      }
    }
    return d;
  }
}
