package dev.troupe.cluster.internal.singleton;

import dev.troupe.actor.ActorRef;
import dev.troupe.cluster.UniqueAddress;
import java.util.Objects;

/**
 * The messages between singleton managers, and between a manager and the proxies it serves. Over
 * remoting they need a serializer binding for {@link Message} (the cluster wiring adds it).
 */
public final class Protocol {
  private Protocol() {}

  /** Every message of the protocol. */
  public sealed interface Message
      permits HandOverToMe, HandOverInProgress, HandOverDone, RegisterProxy, SingletonIs, SingletonMoving,
          ProxyStopped {}

  /**
   * From the new owner to a member older than itself: stop your instance, if any, and say so.
   *
   * @param from the new owner
   */
  public record HandOverToMe(UniqueAddress from) implements Message {
    public HandOverToMe {
      Objects.requireNonNull(from, "from");
    }
  }

  /**
   * The answer to {@link HandOverToMe} while the instance is still stopping.
   *
   * @param from the old owner
   */
  public record HandOverInProgress(UniqueAddress from) implements Message {
    public HandOverInProgress {
      Objects.requireNonNull(from, "from");
    }
  }

  /**
   * From a member older than the owner, which sees the owner as the owner: it runs no instance
   * (any it ran has stopped) and starts none while the owner is up.
   *
   * @param from the member
   */
  public record HandOverDone(UniqueAddress from) implements Message {
    public HandOverDone {
      Objects.requireNonNull(from, "from");
    }
  }

  /** From a proxy to the owner's manager: tell me the instance once it runs, and before it moves. */
  public record RegisterProxy() implements Message {}

  /**
   * From a manager to a registered proxy: the instance runs and may be sent to.
   *
   * @param instance the running instance
   * @param node the node it runs on
   */
  public record SingletonIs(ActorRef instance, UniqueAddress node) implements Message {
    public SingletonIs {
      Objects.requireNonNull(instance, "instance");
      Objects.requireNonNull(node, "node");
    }
  }

  /**
   * From a manager to a registered proxy: stop sending to this instance, hold messages, answer
   * {@link ProxyStopped}; the termination message goes out once every proxy answered.
   *
   * @param instance the instance that is about to stop
   */
  public record SingletonMoving(ActorRef instance) implements Message {
    public SingletonMoving {
      Objects.requireNonNull(instance, "instance");
    }
  }

  /** From a proxy to the manager: everything I sent to the instance was sent before this. */
  public record ProxyStopped() implements Message {}
}
