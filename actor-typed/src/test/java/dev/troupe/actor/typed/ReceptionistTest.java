package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.receptionist.Receptionist;
import dev.troupe.actor.typed.receptionist.ServiceKey;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The local receptionist: register, find, subscribe, deregister, and removal on stop. */
class ReceptionistTest {
  private static final ServiceKey<String> KEY = ServiceKey.create(String.class, "echo");
  private static final ServiceKey<String> OTHER = ServiceKey.create(String.class, "other");

  private ActorSystem<Void> system;

  @BeforeEach
  void start() {
    system = Systems.empty("receptionist");
  }

  @AfterEach
  void stop() {
    Systems.terminate(system);
  }

  private ActorRef<String> service(String name) {
    return Adapter.spawn(Adapter.toClassic(system), Behaviors.receiveMessage(m -> Behaviors.stopped()), name);
  }

  private Set<ActorRef<String>> instances(Probe<Receptionist.Listing> probe) {
    Receptionist.Listing l = probe.expectClass(Receptionist.Listing.class);
    return l.getServiceInstances(KEY);
  }

  @Test
  void aRegisteredServiceIsFoundAndLeavesItsListingWhenItStops() {
    Probe<Receptionist.Registered> registered = new Probe<>(system);
    Probe<Receptionist.Listing> listings = new Probe<>(system);
    ActorRef<String> a = service("a");
    ActorRef<String> b = service("b");
    system.receptionist().tell(Receptionist.register(KEY, a, registered.ref()));
    system.receptionist().tell(Receptionist.register(KEY, b));
    assertEquals(a, registered.expectClass(Receptionist.Registered.class).getServiceInstance(KEY));
    system.receptionist().tell(Receptionist.find(KEY, listings.ref()));
    assertEquals(Set.of(a, b), instances(listings));
    system.receptionist().tell(Receptionist.find(OTHER, listings.ref()));
    Receptionist.Listing empty = listings.expectClass(Receptionist.Listing.class);
    assertEquals(Set.of(), empty.getServiceInstances(OTHER));
    assertThrows(IllegalArgumentException.class, () -> empty.getServiceInstances(KEY));

    Probe<Object> watcher = new Probe<>(system);
    watcher.watch(a);
    a.tell("stop");
    watcher.expectTerminated(a);
    // the receptionist learns of the stop through its own watch; ask until it has
    Set<ActorRef<String>> now;
    long deadline = System.nanoTime() + Probe.WAIT.toNanos();
    do {
      system.receptionist().tell(Receptionist.find(KEY, listings.ref()));
      now = instances(listings);
    } while (!now.equals(Set.of(b)) && System.nanoTime() < deadline);
    assertEquals(Set.of(b), now);
  }

  @Test
  void aSubscriberGetsTheListingNowAndAfterEveryChange() {
    Probe<Receptionist.Listing> sub = new Probe<>(system);
    system.receptionist().tell(Receptionist.subscribe(KEY, sub.ref()));
    assertEquals(Set.of(), instances(sub));
    ActorRef<String> a = service("a");
    system.receptionist().tell(Receptionist.register(KEY, a));
    assertEquals(Set.of(a), instances(sub));
    ActorRef<String> b = service("b");
    system.receptionist().tell(Receptionist.register(KEY, b));
    assertEquals(Set.of(a, b), instances(sub));
    Probe<Receptionist.Deregistered> dereg = new Probe<>(system);
    system.receptionist().tell(Receptionist.deregister(KEY, a, dereg.ref()));
    assertEquals(Set.of(b), instances(sub));
    assertEquals(a, dereg.expectClass(Receptionist.Deregistered.class).getServiceInstance(KEY));
    b.tell("stop");
    assertEquals(Set.of(), instances(sub));
  }

  /**
   * The common way to subscribe from a typed actor: through a message adapter. The receptionist
   * cannot watch an adapter (it names no cell), so it watches the actor that made it; watching the
   * adapter itself failed the receptionist, whose restart forgot every listing.
   */
  @Test
  void aSubscriberThatIsAMessageAdapterIsServedAndLeavesWhenItsActorStops() {
    ActorRef<String> a = service("a");
    system.receptionist().tell(Receptionist.register(KEY, a));
    Probe<Integer> counts = new Probe<>(system);
    ActorRef<String> subscriber = Adapter.spawn(Adapter.toClassic(system), Behaviors.<String>setup(ctx -> {
      ActorRef<Receptionist.Listing> adapter =
          ctx.messageAdapter(Receptionist.Listing.class, l -> String.valueOf(l.getServiceInstances(KEY).size()));
      system.receptionist().tell(Receptionist.subscribe(KEY, adapter));
      system.receptionist().tell(Receptionist.register(KEY, adapter.unsafeUpcast()));
      return Behaviors.receiveMessage(m -> {
        if (m.equals("stop")) {
          return Behaviors.stopped();
        }
        counts.ref().tell(Integer.valueOf(m));
        return Behaviors.same();
      });
    }), "subscriber");
    assertEquals(1, counts.expectClass(Integer.class), "the listing at subscription: a");
    assertEquals(2, counts.expectClass(Integer.class), "a and the adapter, registered as an instance");

    Probe<Receptionist.Listing> listings = new Probe<>(system);
    system.receptionist().tell(Receptionist.subscribe(KEY, listings.ref()));
    assertEquals(2, instances(listings).size(), "the receptionist kept its listings (it did not restart)");

    subscriber.tell("stop");
    assertEquals(Set.of(a), instances(listings), "the actor's adapter left the listing when the actor stopped");
  }

  @Test
  void theSystemHasOneReceptionistWhicheverViewAsksForIt() {
    assertEquals(system.receptionist(), Adapter.toTyped(Adapter.toClassic(system)).receptionist());
  }
}
