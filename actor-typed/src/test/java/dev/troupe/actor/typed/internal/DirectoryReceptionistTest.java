package dev.troupe.actor.typed.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.spi.ServiceDirectory;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.Receptionist.Listing;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The receptionist with a {@link ServiceDirectory} (as on a cluster member), against a stand-in
 * directory: it attaches first, tells the directory all of this node's instances of a key after each
 * change (register, deregister, stop), never a message adapter, and lists what the directory says
 * the other nodes have, also for a key it meets only after the news.
 */
class DirectoryReceptionistTest {
  private static final ServiceKey<String> KEY = ServiceKey.create(String.class, "echo");
  private static final ServiceKey<Integer> LATER = ServiceKey.create(Integer.class, "later");

  private dev.troupe.actor.ActorSystem system;
  private final BlockingQueue<Object> toDirectory = new LinkedBlockingQueue<>();
  private final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();
  private dev.troupe.actor.ActorRef directory;
  private ActorRef<Receptionist.Command> receptionist;

  /** Puts every message it gets into a queue. */
  static final class Recorder extends UntypedActor {
    private final BlockingQueue<Object> queue;

    Recorder(BlockingQueue<Object> queue) {
      this.queue = queue;
    }

    @Override
    public void onReceive(Object message) {
      queue.add(message);
    }
  }

  @BeforeEach
  void start() {
    system = dev.troupe.actor.ActorSystem.create("directory-receptionist");
    directory = system.actorOf(Props.create(Recorder.class, () -> new Recorder(toDirectory)), "directory");
    receptionist = Adapter.spawn(system, LocalReceptionist.behavior(directory), "receptionist");
  }

  @AfterEach
  void stop() throws Exception {
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static <T> T next(BlockingQueue<Object> q, Class<T> type) throws InterruptedException {
    Object o = q.poll(10, TimeUnit.SECONDS);
    assertNotNull(o, "nothing arrived within 10 s; expected a " + type.getSimpleName());
    assertTrue(type.isInstance(o), "expected a " + type.getSimpleName() + ", got " + o);
    return type.cast(o);
  }

  private ActorRef<Listing> listener() {
    dev.troupe.actor.ActorRef r = system.actorOf(Props.create(Recorder.class, () -> new Recorder(heard)));
    return Adapter.toTyped(r);
  }

  private ActorRef<String> service(String name) {
    return Adapter.spawn(system, Behaviors.receiveMessage(m -> Behaviors.stopped()), name);
  }

  @Test
  void itAttachesAndTellsTheDirectoryAllOfItsInstancesOfAKeyAfterEachChange() throws Exception {
    ServiceDirectory.Attach attach = next(toDirectory, ServiceDirectory.Attach.class);
    ActorRef<String> a = service("a");
    ActorRef<String> b = service("b");
    receptionist.tell(Receptionist.register(KEY, a));
    ServiceDirectory.LocalInstances first = next(toDirectory, ServiceDirectory.LocalInstances.class);
    assertEquals("java.lang.String#echo", first.service());
    assertEquals(Set.of(Adapter.toClassic(a)), first.instances());
    receptionist.tell(Receptionist.register(KEY, b));
    assertEquals(Set.of(Adapter.toClassic(a), Adapter.toClassic(b)),
        next(toDirectory, ServiceDirectory.LocalInstances.class).instances());
    receptionist.tell(Receptionist.deregister(KEY, b));
    assertEquals(Set.of(Adapter.toClassic(a)), next(toDirectory, ServiceDirectory.LocalInstances.class).instances());
    a.tell("stop");
    assertEquals(Set.of(), next(toDirectory, ServiceDirectory.LocalInstances.class).instances(),
        "an instance that stops leaves this node's set");

    // A message adapter lives only in its actor's system: listed here, not told to the directory.
    ActorRef<String> adapterLike = new ActorRefAdapter<>(attach.receptionist());
    receptionist.tell(Receptionist.register(KEY, adapterLike));
    assertEquals(Set.of(), next(toDirectory, ServiceDirectory.LocalInstances.class).instances());
    receptionist.tell(Receptionist.find(KEY, listener()));
    assertEquals(Set.of(adapterLike), next(heard, Listing.class).getServiceInstances(KEY));
  }

  @Test
  void theOtherNodesInstancesAreListedWithThisOnesAndSubscribersHearTheirChanges() throws Exception {
    ServiceDirectory.Attach attach = next(toDirectory, ServiceDirectory.Attach.class);
    ActorRef<String> here = service("here");
    dev.troupe.actor.ActorRef there = system.actorOf(Props.create(Recorder.class, () -> new Recorder(new LinkedBlockingQueue<>())));
    dev.troupe.actor.ActorRef laterThere = system.actorOf(Props.create(Recorder.class, () -> new Recorder(new LinkedBlockingQueue<>())));
    // news of a key this receptionist has not met yet: kept, and listed once the key is met
    attach.receptionist().tell(new ServiceDirectory.RemoteInstances("java.lang.Integer#later", Set.of(laterThere)), null);

    receptionist.tell(Receptionist.register(KEY, here));
    receptionist.tell(Receptionist.subscribe(KEY, listener()));
    assertEquals(Set.of(here), next(heard, Listing.class).getServiceInstances(KEY));

    attach.receptionist().tell(new ServiceDirectory.RemoteInstances("java.lang.String#echo", Set.of(there)), null);
    assertEquals(Set.of(here, Adapter.<String>toTyped(there)), next(heard, Listing.class).getServiceInstances(KEY),
        "the subscriber hears the other node's instance beside this node's");
    attach.receptionist().tell(new ServiceDirectory.RemoteInstances("java.lang.String#echo", Set.of()), null);
    assertEquals(Set.of(here), next(heard, Listing.class).getServiceInstances(KEY), "and hears it leave");

    receptionist.tell(Receptionist.find(LATER, listener()));
    assertEquals(Set.of(Adapter.<Integer>toTyped(laterThere)), next(heard, Listing.class).getServiceInstances(LATER),
        "news that came before the key was met is listed");
  }
}
