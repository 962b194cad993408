package dev.troupe.micrometer;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.UnhandledMessage;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.LongAdder;

/**
 * The meters counted from the event stream: unhandled messages and, when {@code troupe-remoting}
 * is present and the system is remote, remoting's events ({@link RemoteCounters}). The runtime
 * publishes these events whether or not anyone listens; counting them here is the only record.
 *
 * <p>The subscriber is an {@link ActorRef} whose {@code tell} counts on the publishing thread: no
 * actor, no mailbox, no message allocated for it.
 */
final class EventCounters {
  private final TroupeMetrics binder;
  private final Tags tags;
  private final LongAdder unhandled = new LongAdder();
  private final RemoteCounters remote; // null: remoting absent or the system is local
  private final ActorRef subscriber;

  EventCounters(TroupeMetrics binder, ActorSystem system, Tags tags) {
    this.binder = binder;
    this.tags = tags;
    this.remote =
        remotingPresent() && system.address().port().isPresent()
            ? new RemoteCounters(binder, system, tags)
            : null;
    this.subscriber =
        new Subscriber(
            ActorPath.root(system.address()).child("system").child("troupe-micrometer"));
  }

  /**
   * Whether the remoting module is there, without reflection: in a module layer, whether it was
   * resolved; on the class path, whether its event classes are.
   */
  private static boolean remotingPresent() {
    Module self = EventCounters.class.getModule();
    if (self.isNamed()) {
      ModuleLayer layer = self.getLayer();
      return layer != null && layer.findModule("dev.troupe.remoting").isPresent();
    }
    ClassLoader loader = EventCounters.class.getClassLoader();
    return loader != null && loader.getResource("dev/troupe/remote/Dropped.class") != null;
  }

  void registerIn(MeterRegistry r) {
    binder.register(
        r,
        FunctionCounter.builder("troupe.unhandled.messages", unhandled, LongAdder::sum)
                .description("messages an actor's behaviour did not handle")
                .tags(tags)
            ::register);
    if (remote != null) {
      remote.registerIn(r);
    }
  }

  void subscribe(ActorSystem system) {
    system.eventStream().subscribe(subscriber, UnhandledMessage.class);
    if (remote != null) {
      remote.subscribe(system.eventStream(), subscriber);
    }
  }

  /** @return whether {@link #refresh()} has something to read (remoting's metrics view) */
  boolean refreshes() {
    return remote != null && remote.refreshes();
  }

  /** Reads remoting's metrics view, if there is one; on the binder's refresh. */
  void refresh() {
    if (remote != null) {
      remote.refresh();
    }
  }

  void unsubscribe(ActorSystem system) {
    system.eventStream().unsubscribe(subscriber);
  }

  /** Counts the events it is told, on the publisher's thread. */
  private final class Subscriber extends ActorRef {
    private final ActorPath path;

    Subscriber(ActorPath path) {
      this.path = path;
    }

    @Override
    public ActorPath path() {
      return path;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
      if (message instanceof UnhandledMessage) {
        unhandled.increment();
      } else if (remote != null) {
        remote.count(message);
      }
    }
  }
}
