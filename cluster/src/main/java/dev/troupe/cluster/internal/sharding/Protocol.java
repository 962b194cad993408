package dev.troupe.cluster.internal.sharding;

import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.UniqueAddress;
import java.util.List;
import java.util.Objects;

/**
 * The messages between regions and shards. {@link HandOverQuery}, {@link HandOverDone}, {@link
 * LeaveCheck} and {@link LeaveChecked} cross the network once the cluster is wired (public, so that the wiring's serializer
 * can build them); the others stay within one node.
 */
public final class Protocol {
  private Protocol() {}

  /**
   * From a region, on each new view, to every other member's region: answer with {@link HandOverDone}
   * once your view has these owners too and you host no shard you do not own. View versions count
   * the changes each node's feeder saw since it started, so they differ between a node that joined
   * later and the others; the owners are what the views agree on, and the answer carries the asker's
   * own version back.
   *
   * @param version the asker's view version
   * @param from the asker's node
   * @param owners the members that own shards in the asker's view (any order)
   */
  public record HandOverQuery(long version, UniqueAddress from, List<UniqueAddress> owners) {
    public HandOverQuery {
      Objects.requireNonNull(from, "from");
      owners = List.copyOf(owners);
    }
  }

  /**
   * The answer to a {@link HandOverQuery}: the sender's view has the owners of the asker's view
   * {@code version}, and the sender hosts no shard it does not own there (it has stopped the
   * entities of every shard it lost).
   *
   * @param version the asker's view version (the asker's numbering)
   * @param from the sender's node
   */
  public record HandOverDone(long version, UniqueAddress from) {
    public HandOverDone {
      Objects.requireNonNull(from, "from");
    }
  }

  /**
   * From a leaving region that has handed over, to every other member's region: answer with {@link
   * LeaveChecked} once your view no longer has me as an owner. The answer comes after every message
   * the peer routed to the leaver, and after every message the leaver sent it before the check (one
   * sender, one receiver: in order), so the leaver knows nothing is still on its way to or from it.
   *
   * @param round the leaver's check round (answers of an older round are ignored)
   * @param from the leaver's node
   */
  public record LeaveCheck(long round, UniqueAddress from) {
    public LeaveCheck {
      Objects.requireNonNull(from, "from");
    }
  }

  /**
   * The answer to {@link LeaveCheck}: the sender's view no longer has the leaver as an owner (it
   * routes nothing more to it), and it has received what the leaver sent before the check.
   *
   * @param round the round of the check answered
   * @param from the answering region's node
   */
  public record LeaveChecked(long round, UniqueAddress from) {
    public LeaveChecked {
      Objects.requireNonNull(from, "from");
    }
  }

  /** From a region to itself: the hand-over timeout of a view passed. */
  record HandOverTimeout(long version) {}

  /** From a region to one of its shards: stop every entity (in mailbox order), then stop. */
  enum HandOff {
    INSTANCE
  }

  /** From a region (or its query) to a shard: reply with the shard's {@code ShardState}. */
  enum GetShardState {
    INSTANCE
  }

  /** From a shard to itself: look for idle entities. */
  enum IdleTick {
    INSTANCE
  }

  /** A message held for later, with its sender. */
  record Buffered(Object message, ActorRef sender) {}

  /** The query for {@link Stats} (tests and diagnostics). */
  enum GetStats {
    INSTANCE
  }

  /**
   * A region's counters.
   *
   * @param hostedShards shards it hosts now
   * @param stoppingShards shards it is handing over (stopping their entities)
   * @param bufferedMessages messages it holds for shards in hand-over (or without an owner)
   * @param dropped messages dropped because a buffer was full, since it started
   * @param pendingQueries hand-over queries of peers it has not answered yet
   */
  record Stats(int hostedShards, int stoppingShards, int bufferedMessages, long dropped, int pendingQueries) {}
}
