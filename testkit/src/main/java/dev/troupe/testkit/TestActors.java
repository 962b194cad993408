package dev.troupe.testkit;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import dev.troupe.actor.Status;
import dev.troupe.actor.SupervisorStrategy;
import java.util.Objects;

/**
 * Small actors that tests keep needing, as {@link Props}: an echo, a blackhole, a forwarder, a
 * relay, and two parents (one that puts an actor under test below it, one that makes children on
 * request). The echo, blackhole and forwarder have the names of Pekko's {@code TestActors}.
 *
 * <pre>{@code
 * ActorRef echo = system.actorOf(TestActors.echoActorProps());
 * kit.send(echo, "hi");
 * kit.expectMsg("hi");
 * }</pre>
 *
 * The actor classes are public with public constructors in an exported package, so their props
 * carry the class and its arguments (no lambda) and work on the module path without {@code opens}.
 */
public final class TestActors {
  private TestActors() {}

  /**
   * An actor that answers every message to its sender, unchanged.
   *
   * @return its props
   */
  public static Props echoActorProps() {
    return Props.create(Echo.class);
  }

  /**
   * An actor that answers every message to its sender as the text {@code prefix + message}, so a
   * test can tell the answer from what it sent (a remote test sending {@code "hi"} expects {@code
   * "echo:hi"}).
   *
   * @param prefix the text before the message's {@code toString()}
   * @return its props
   */
  public static Props echoActorProps(String prefix) {
    return Props.create(PrefixEcho.class, Objects.requireNonNull(prefix, "prefix"));
  }

  /**
   * An actor that takes every message and does nothing with it: a recipient that never answers.
   *
   * @return its props
   */
  public static Props blackholeProps() {
    return Props.create(Blackhole.class);
  }

  /**
   * An actor that forwards every message to {@code target}, keeping the original sender, so the
   * target answers whoever sent to the forwarder.
   *
   * @param target where messages go
   * @return its props
   */
  public static Props forwardActorProps(ActorRef target) {
    return Props.create(Forwarder.class, Objects.requireNonNull(target, "target"));
  }

  /**
   * An actor that sends every message on to {@code target} as its own: the target sees the relay
   * as the sender (unlike {@link #forwardActorProps}), so its answers come back to the relay and are
   * dropped as unhandled.
   *
   * @param target where messages go
   * @return its props
   */
  public static Props relayActorProps(ActorRef target) {
    return Props.create(Relay.class, Objects.requireNonNull(target, "target"));
  }

  /**
   * A parent for an actor under test: it creates one child from {@code child}, named {@code
   * childName}, when it starts, and forwards every message to it (keeping the sender). What the
   * child sends to its parent ({@code getContext().getParent()}) is forwarded to {@code observer},
   * so a test sees it. The child is supervised by the default strategy.
   *
   * @param child the child's props
   * @param childName the child's name
   * @param observer who gets what the child sends to its parent
   * @return the parent's props
   */
  public static Props forwardingParentProps(Props child, String childName, ActorRef observer) {
    return Props.create(ForwardingParent.class, Objects.requireNonNull(child, "child"),
        Objects.requireNonNull(childName, "childName"), Objects.requireNonNull(observer, "observer"));
  }

  /**
   * A parent that makes children on request: sent a {@code String}, it creates a child from {@code
   * child} with that name and answers with the child's {@link ActorRef}, or with a {@link
   * Status.Failure} holding the exception when {@code actorOf} throws (an invalid or taken name, a
   * refused deployment). Its children are supervised by the default strategy.
   *
   * @param child the children's props
   * @return the parent's props
   */
  public static Props childMakerProps(Props child) {
    return childMakerProps(child, SupervisorStrategy.defaultStrategy());
  }

  /**
   * A parent that makes children on request, as {@link #childMakerProps(Props)}, whose children are
   * supervised by {@code strategy}.
   *
   * @param child the children's props
   * @param strategy how it handles its children's failures
   * @return the parent's props
   */
  public static Props childMakerProps(Props child, SupervisorStrategy strategy) {
    return Props.create(ChildMaker.class, Objects.requireNonNull(child, "child"), Objects.requireNonNull(strategy, "strategy"));
  }

  /** See {@link #echoActorProps()}. */
  public static final class Echo extends AbstractActor {
    /** Created through {@link #echoActorProps()}. */
    public Echo() {}

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
    }
  }

  /** See {@link #echoActorProps(String)}. */
  public static final class PrefixEcho extends AbstractActor {
    private final String prefix;

    /**
     * Created through {@link #echoActorProps(String)}.
     *
     * @param prefix the text before each answer
     */
    public PrefixEcho(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> getSender().tell(prefix + m, getSelf())).build();
    }
  }

  /** See {@link #blackholeProps()}. */
  public static final class Blackhole extends AbstractActor {
    /** Created through {@link #blackholeProps()}. */
    public Blackhole() {}

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> {}).build();
    }
  }

  /** See {@link #forwardActorProps(ActorRef)}. */
  public static final class Forwarder extends AbstractActor {
    private final ActorRef target;

    /**
     * Created through {@link #forwardActorProps(ActorRef)}.
     *
     * @param target where messages go
     */
    public Forwarder(ActorRef target) {
      this.target = target;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> target.forward(m, getContext())).build();
    }
  }

  /** See {@link #relayActorProps(ActorRef)}. */
  public static final class Relay extends AbstractActor {
    private final ActorRef target;

    /**
     * Created through {@link #relayActorProps(ActorRef)}.
     *
     * @param target where messages go
     */
    public Relay(ActorRef target) {
      this.target = target;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder().matchAny(m -> target.tell(m, getSelf())).build();
    }
  }

  /** See {@link #forwardingParentProps(Props, String, ActorRef)}. */
  public static final class ForwardingParent extends AbstractActor {
    private final Props childProps;
    private final String childName;
    private final ActorRef observer;
    private ActorRef child;

    /**
     * Created through {@link #forwardingParentProps(Props, String, ActorRef)}.
     *
     * @param childProps the child's props
     * @param childName the child's name
     * @param observer who gets what the child sends to its parent
     */
    public ForwardingParent(Props childProps, String childName, ActorRef observer) {
      this.childProps = childProps;
      this.childName = childName;
      this.observer = observer;
    }

    @Override
    public void preStart() {
      child = getContext().actorOf(childProps, childName);
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchAny(m -> (getSender().equals(child) ? observer : child).forward(m, getContext()))
          .build();
    }
  }

  /** See {@link #childMakerProps(Props, SupervisorStrategy)}. */
  public static final class ChildMaker extends AbstractActor {
    private final Props childProps;
    private final SupervisorStrategy strategy;

    /**
     * Created through {@link #childMakerProps(Props, SupervisorStrategy)}.
     *
     * @param childProps the children's props
     * @param strategy how it handles its children's failures
     */
    public ChildMaker(Props childProps, SupervisorStrategy strategy) {
      this.childProps = childProps;
      this.strategy = strategy;
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
      return strategy;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, name -> {
            Object answer;
            try {
              answer = getContext().actorOf(childProps, name);
            } catch (RuntimeException e) {
              answer = new Status.Failure(e);
            }
            getSender().tell(answer, getSelf());
          })
          .build();
    }
  }
}
