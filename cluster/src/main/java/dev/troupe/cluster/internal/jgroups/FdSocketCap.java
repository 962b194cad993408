package dev.troupe.cluster.internal.jgroups;

import org.jgroups.blocks.cs.BaseServer;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.stack.Protocol;

/**
 * Caps what one message on the failure detector's port may cost. FD_SOCK2 listens on a port of its
 * own (the transport's + 100) where it only ever exchanges a connect request and its answer (an
 * address and the cluster's name, well under a KiB), but JGroups leaves that server's message length
 * unbounded: whoever reaches the port could announce a message of 2 GiB and have the member allocate
 * a buffer that large. This protocol sits right above FD_SOCK2 and, when the stack starts (bottom to
 * top, so just after FD_SOCK2 opened its server), sets that server's cap to {@value #MAX_BYTES}
 * bytes: a longer message closes its connection, as on the transport's port.
 *
 * <p>JGroups reads the cap when it accepts a connection, so connections accepted in the moment
 * between FD_SOCK2's start and this one's (the same thread, before the node has told anyone its
 * address) keep the old, unbounded reader.
 */
final class FdSocketCap extends Protocol {
  /** The longest message accepted on the failure detector's port. */
  static final int MAX_BYTES = 64 << 10;

  @Override
  public void start() throws Exception {
    super.start();
    Protocol below = down_prot;
    if (!(below instanceof FD_SOCK2)) {
      throw new IllegalStateException("FdSocketCap must sit right above FD_SOCK2, not above " + below);
    }
    // FD_SOCK2 has no accessor for its server; JGroups' own property access reads the field
    if (below.getValue("srv") instanceof BaseServer server) {
      server.setMaxLength(MAX_BYTES);
    } else {
      throw new IllegalStateException("FD_SOCK2 started without a server");
    }
  }
}
