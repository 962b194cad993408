package dev.troupe.actor.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Typed extensions: one per system and id (the typed system and its classic system's typed view
 * share them), made once, able to start a system actor, and the ids listed in {@code
 * troupe.actor.typed.extensions} registered before the guardian runs.
 */
class TypedExtensionsTest {
  private final List<ActorSystem<?>> systems = new ArrayList<>();

  private <T> ActorSystem<T> system(Behavior<T> guardian, String hocon) {
    ActorSystem<T> s = ActorSystem.create(guardian, "typed-ext-" + systems.size(), ConfigFactory.parseString(hocon));
    systems.add(s);
    return s;
  }

  @AfterEach
  void stop() {
    systems.forEach(Systems::terminate);
  }

  /** A per-system service with an actor of its own under /system. */
  public static final class Greeter implements Extension {
    final ActorRef<String> actor;

    Greeter(ActorRef<String> actor) {
      this.actor = actor;
    }

    /** The id, Pekko's Java way: a nested class with one private instance. */
    public static final class Id extends ExtensionId<Greeter> {
      private static final Id INSTANCE = new Id();
      static final AtomicInteger MADE = new AtomicInteger();

      private Id() {}

      @Override
      public Greeter createExtension(ActorSystem<?> system) {
        MADE.incrementAndGet();
        return new Greeter(system.systemActorOf(Behaviors.ignore(), "greeter-service", Props.empty()));
      }

      public static Greeter get(ActorSystem<?> system) {
        return INSTANCE.apply(system);
      }
    }
  }

  @Test
  void oneExtensionPerSystemSharedWithTheClassicSystemsTypedView() {
    ActorSystem<Void> a = system(Behaviors.empty(), "");
    ActorSystem<Void> b = system(Behaviors.empty(), "");
    int before = Greeter.Id.MADE.get();
    Greeter ga = Greeter.Id.get(a);
    assertSame(ga, Greeter.Id.get(a));
    assertSame(ga, Greeter.Id.get(Adapter.toTyped(Adapter.toClassic(a))), "the typed view of the classic system");
    assertSame(ga, a.extension(Greeter.Id.INSTANCE));
    assertEquals("system", ga.actor.path().parent().name(), "its actor runs under /system");
    assertNotSame(ga, Greeter.Id.get(b));
    assertEquals(before + 2, Greeter.Id.MADE.get());
  }

  @Test
  void listedTypedExtensionsAreThereBeforeTheGuardianRuns() {
    ActorSystem<Void> observer = system(Behaviors.empty(), "");
    Probe<Object> seen = new Probe<>(observer);
    ActorSystem<Void> s =
        system(
            Behaviors.setup(ctx -> {
              seen.ref().tell(ctx.getSystem().hasExtension(Greeter.Id.INSTANCE));
              return Behaviors.empty();
            }),
            "troupe.actor.typed.extensions = [\"" + Greeter.Id.class.getName() + "\"]");
    seen.expect(true);
    assertTrue(s.hasExtension(Greeter.Id.INSTANCE));
  }

  public static final class Broken extends ExtensionId<Greeter> {
    private static final Broken INSTANCE = new Broken();

    private Broken() {}

    @Override
    public Greeter createExtension(ActorSystem<?> system) {
      throw new IllegalStateException("cannot start");
    }
  }

  @Test
  void aTypedExtensionThatFailsToStartFailsTheSystemsCreationNamingIt() {
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> system(Behaviors.empty(), "troupe.actor.typed.extensions = [\"" + Broken.class.getName() + "\"]"));
    assertTrue(e.getMessage().contains("troupe.actor.typed.extensions entry") && e.getMessage().contains("cannot start"), e.getMessage());
    ActorSystem<Void> s = system(Behaviors.empty(), "");
    assertFalse(s.hasExtension(Broken.INSTANCE));
    assertThrows(IllegalArgumentException.class, () -> s.extension(Broken.INSTANCE));
  }
}
