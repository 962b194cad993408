package dev.troupe.actor.tests.seam;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.ActorRefProvider;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.LocalActorRefProvider;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Terminate;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.runtime.spi.SystemMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A ref provider for the seam's tests: systems in one JVM that reach each other by address through
 * in-memory queues, one delivery thread per system, the way a real transport would (everything
 * that crosses is reduced to paths and plain values, and turned back into refs on arrival). It
 * shows remoting where it plugs in and proves that the engine needs nothing else.
 *
 * <p>Select it with {@code troupe.actor.provider = dev.troupe.actor.tests.seam.QueueTransport$Factory}
 * and {@code queue-transport.port = <n>}.
 */
public final class QueueTransport implements ActorRefProvider {
  /** The "network": every started provider by address. */
  private static final Map<Address, QueueTransport> NETWORK = new ConcurrentHashMap<>();

  /** The factory named in configuration. */
  public static final class Factory implements ActorRefProviderFactory {
    /** For the runtime, which instantiates it by class name. */
    public Factory() {}

    @Override
    public String name() {
      return "queue";
    }

    @Override
    public ActorRefProvider create(RuntimeSystem system) {
      int port = system.actorSystem().settings().config().getInt("queue-transport.port");
      return new QueueTransport(system, Address.remote(system.actorSystem().name(), "127.0.0.1", port));
    }
  }

  // ------------------------------------------------------------------ frames (the "wire")

  /** What crosses: only strings and plain values, as a real wire codec would leave. */
  sealed interface Frame permits UserFrame, WatchFrame, UnwatchFrame, DeathFrame, StopFrame {}

  record UserFrame(String recipient, String sender, Object payload) implements Frame {}

  record WatchFrame(String watchee, String watcher) implements Frame {}

  record UnwatchFrame(String watchee, String watcher) implements Frame {}

  record DeathFrame(String watcher, String actor, boolean existenceConfirmed, boolean addressTerminated)
      implements Frame {}

  record StopFrame(String recipient) implements Frame {}

  /** An identity on the wire: the ref as its path. */
  record WireIdentity(Object correlationId, String ref) {}

  /** A selection on the wire. */
  record WireSelection(Object message, List<String> elements) {}

  // ------------------------------------------------------------------ the provider

  private final RuntimeSystem system;
  private final LocalActorRefProvider local;
  private final BlockingQueue<Frame> inbound = new LinkedBlockingQueue<>();
  private final Thread delivery;
  private volatile boolean running = true;

  private QueueTransport(RuntimeSystem system, Address address) {
    this.system = system;
    this.local = system.newLocalProvider(address);
    this.delivery = new Thread(this::deliverLoop, system.actorSystem().name() + "-queue-transport");
    this.delivery.setDaemon(true);
  }

  @Override
  public Address address() {
    return local.address();
  }

  @Override
  public LocalActorRefProvider local() {
    return local;
  }

  @Override
  public void init() {
    local.init();
    if (NETWORK.putIfAbsent(address(), this) != null) {
      throw new IllegalStateException("address in use: " + address());
    }
    delivery.start();
  }

  @Override
  public InternalActorRef resolveActorRef(ActorPath path) {
    return path.address().equals(address()) ? local.resolveLocal(path) : new QueueRef(path);
  }

  @Override
  public InternalActorRef rootGuardianAt(Address address) {
    return address.equals(address()) ? local.rootGuardian() : new QueueRef(ActorPath.root(address));
  }

  @Override
  public InternalActorRef actorOf(InternalActorRef parent, Props props, ActorPath path, Address target) {
    return local.actorOf(parent, props, path, target); // deployment is not what this seam test is about
  }

  @Override
  public void shutdown() {
    NETWORK.remove(address(), this);
    running = false;
    delivery.interrupt();
  }

  /** Declares a node gone, as a failure detector would. */
  void declareGone(Address address) {
    system.addressTerminated(address);
  }

  /** Cuts this node off the network without a word (its peers' watchers hear nothing). */
  void vanish() {
    NETWORK.remove(address(), this);
  }

  private void send(Address to, Frame frame) {
    QueueTransport peer = NETWORK.get(to);
    if (peer != null) {
      peer.inbound.add(frame);
    } // else: unreachable, the frame is lost, as on a real network
  }

  private void deliverLoop() {
    while (running) {
      Frame f;
      try {
        f = inbound.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (f != null) {
        deliver(f);
      }
    }
  }

  private InternalActorRef ref(String path) {
    return path == null ? null : resolveActorRef(ActorPath.fromString(path));
  }

  private void deliver(Frame f) {
    if (f instanceof UserFrame u) {
      Object message = decode(u.payload());
      ActorRef sender = ref(u.sender());
      if (message instanceof ActorSelectionMessage sel) {
        local.deliverSelection(sel, sender);
      } else {
        ref(u.recipient()).tell(message, sender);
      }
    } else if (f instanceof WatchFrame w) {
      InternalActorRef watchee = ref(w.watchee());
      watchee.sendSystemMessage(new Watch(watchee, ref(w.watcher())));
    } else if (f instanceof UnwatchFrame w) {
      InternalActorRef watchee = ref(w.watchee());
      watchee.sendSystemMessage(new Unwatch(watchee, ref(w.watcher())));
    } else if (f instanceof DeathFrame d) {
      ref(d.watcher())
          .sendSystemMessage(new DeathWatchNotification(ref(d.actor()), d.existenceConfirmed(), d.addressTerminated()));
    } else if (f instanceof StopFrame s) {
      ref(s.recipient()).stop();
    }
  }

  private static String pathOf(ActorRef ref) {
    return ref == null ? null : ref.path().toSerializationFormat();
  }

  private static Object encode(Object message) {
    if (message instanceof ActorIdentity id) {
      return new WireIdentity(id.correlationId(), id.ref().map(QueueTransport::pathOf).orElse(null));
    }
    if (message instanceof ActorSelectionMessage sel) {
      return new WireSelection(encode(sel.message()), sel.elements());
    }
    return message; // strings, numbers, Identify: values that need no translation
  }

  private Object decode(Object payload) {
    if (payload instanceof WireIdentity id) {
      return new ActorIdentity(id.correlationId(), Optional.ofNullable(ref(id.ref())));
    }
    if (payload instanceof WireSelection sel) {
      return new ActorSelectionMessage(decode(sel.message()), sel.elements());
    }
    return payload;
  }

  /** A ref to an actor on another node of the queue network. */
  final class QueueRef extends InternalActorRef {
    private final ActorPath path;

    QueueRef(ActorPath path) {
      this.path = path;
    }

    @Override
    public RuntimeSystem system() {
      return system;
    }

    @Override
    public ActorPath path() {
      return path;
    }

    @Override
    public boolean isLocal() {
      return false;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
      if (message == null) {
        throw new NullPointerException("message must not be null (sent to " + path + ")");
      }
      send(path.address(), new UserFrame(pathOf(this), pathOf(sender), encode(message)));
    }

    @Override
    public void sendSystemMessage(SystemMessage message) {
      if (message instanceof Watch w) {
        send(path.address(), new WatchFrame(pathOf(w.watchee()), pathOf(w.watcher())));
      } else if (message instanceof Unwatch u) {
        send(path.address(), new UnwatchFrame(pathOf(u.watchee()), pathOf(u.watcher())));
      } else if (message instanceof DeathWatchNotification d) {
        send(path.address(), new DeathFrame(pathOf(this), pathOf(d.actor()), d.existenceConfirmed(), d.addressTerminated()));
      } else if (message instanceof Terminate) {
        send(path.address(), new StopFrame(pathOf(this)));
      }
    }

    @Override
    public boolean isTerminated() {
      return false;
    }
  }
}
