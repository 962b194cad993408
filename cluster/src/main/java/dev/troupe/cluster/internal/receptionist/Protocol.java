package dev.troupe.cluster.internal.receptionist;

import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.UniqueAddress;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The messages between the directories of two members. Each carries whole sets (all of a node's
 * instances, or all of its instances of one service), so a message that overtakes or replaces an
 * earlier one leaves nothing stale behind it. Over remoting they need a serializer binding for
 * {@link Message} (the cluster's reference configuration adds it).
 */
public final class Protocol {
  /** The most services one node may list; a peer's message over it is refused. */
  public static final int MAX_SERVICES = 1024;

  /**
   * The most instances one node may list, of all its services together; a peer's message over it
   * is refused. It keeps a node's whole state in one frame (256 KiB by default: about 2048 refs of
   * 70-byte paths take half of it) and bounds what a peer can make each member hold and resolve.
   */
  public static final int MAX_INSTANCES = 2048;

  /** The longest service name the wire carries, in chars (the cluster's bound on a peer's strings). */
  public static final int MAX_NAME = 1024;

  private Protocol() {}

  /** Every message of the protocol. */
  public sealed interface Message permits State, Update {}

  /**
   * All of a node's instances, by service: sent to a member that came up (asking for its own in
   * return) and as that answer.
   *
   * @param from the node whose instances these are
   * @param answerMe whether the receiver should answer with its own state
   * @param services the node's instances by service name; no empty set
   */
  public record State(UniqueAddress from, boolean answerMe, Map<String, Set<ActorRef>> services)
      implements Message {
    public State {
      Objects.requireNonNull(from, "from");
      services = Map.copyOf(services);
    }
  }

  /**
   * All of a node's instances of one service, after a change (empty: none any more).
   *
   * @param from the node
   * @param service the service's name
   * @param instances its instances on that node
   */
  public record Update(UniqueAddress from, String service, Set<ActorRef> instances) implements Message {
    public Update {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(service, "service");
      instances = Set.copyOf(instances);
    }
  }
}
