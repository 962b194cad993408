package dev.troupe.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

class ActorSystemExtensionTest {
  static final List<ActorSystem> perMethodSystems = new ArrayList<>();
  static final List<ActorSystem> perClassSystems = new ArrayList<>();
  static final List<ActorSystem> createdSystems = new ArrayList<>();

  /** An actor that does nothing: its creation on a dispatcher proves the dispatcher is known. */
  static final class Probe extends dev.troupe.actor.AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  @AfterAll
  static void everySystemWasTerminatedByTheExtension() {
    assertEquals(2, perMethodSystems.size(), "per-method tests ran");
    assertNotSame(perMethodSystems.get(0), perMethodSystems.get(1), "each method gets its own system");
    assertEquals(2, perClassSystems.size(), "per-class tests ran");
    assertSame(perClassSystems.get(0), perClassSystems.get(1), "the class shares one system");
    for (ActorSystem s : perMethodSystems) {
      assertTrue(s.getWhenTerminated().toCompletableFuture().isDone(), s.name() + " terminated");
    }
    for (ActorSystem s : perClassSystems) {
      assertTrue(s.getWhenTerminated().toCompletableFuture().isDone(), s.name() + " terminated");
    }
    assertEquals(3, createdSystems.size(), "createSystem tests ran");
    for (ActorSystem s : createdSystems) {
      assertTrue(s.getWhenTerminated().toCompletableFuture().isDone(), s.name() + " terminated");
      assertEquals(Set.of(), TestKit.liveThreads(s.name() + "-"), "threads of " + s.name());
    }
  }

  @Nested
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class PerMethod {
    @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod("troupe.test.timefactor = 2");

    @Test
    @Order(1)
    void firstTestGetsASystemWithTheGivenConfig(ActorSystem system) {
      assertSame(system, troupe.system());
      assertEquals(2.0, system.settings().config().getDouble("troupe.test.timefactor"));
      perMethodSystems.add(system);
    }

    @Test
    @Order(2)
    void theSystemReadsApplicationConfUnderTheGivenConfig(ActorSystem system) {
      assertEquals("application.conf", system.settings().config().getString("testkit-test.source"));
      assertEquals(2.0, system.settings().config().getDouble("troupe.test.timefactor"), "the extension's own key");
      system.actorOf(
          dev.troupe.actor.Props.create(Probe.class).withDispatcher("from-application-conf-dispatcher"), "on-app-dispatcher");
      dev.troupe.actor.ActorSystem other = troupe.createSystem("testkit-test.overridden = createSystem");
      assertEquals("createSystem", other.settings().config().getString("testkit-test.overridden"));
      assertEquals("application.conf", other.settings().config().getString("testkit-test.source"));
    }

    @Test
    @Order(3)
    void secondTestGetsAFreshSystem(ActorSystem system, TestKit kit) {
      assertSame(system, kit.getSystem());
      assertTrue(perMethodSystems.get(0).getWhenTerminated().toCompletableFuture().isDone(),
          "the first test's system was shut down before this test");
      perMethodSystems.add(system);
    }
  }

  @Nested
  class PerClass {
    @RegisterExtension static final ActorSystemExtension troupe = ActorSystemExtension.perClass("");

    @Test
    void oneTest(ActorSystem system) {
      perClassSystems.add(system);
    }

    @Test
    void anotherTest(ActorSystem system) {
      perClassSystems.add(system);
    }
  }

  @Nested
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class CreateSystem {
    @RegisterExtension static final ActorSystemExtension troupe = ActorSystemExtension.perClass("my.key = 1");
    static ActorSystem beforeAll;

    @BeforeAll
    static void createOneForTheClass() {
      beforeAll = troupe.createSystem("");
      createdSystems.add(beforeAll);
    }

    @Test
    @Order(1)
    void aCreatedSystemIsAnotherSystemWithItsOwnConfigOverTheExtensions(ActorSystem system) {
      ActorSystem other = troupe.createSystem("other.key = 2\nmy.key = 3");
      createdSystems.add(other);
      assertNotSame(system, other);
      assertTrue(other.name().matches("[A-Za-z0-9][A-Za-z0-9_-]*"), other.name());
      assertEquals(2, other.settings().config().getInt("other.key"));
      assertEquals(3, other.settings().config().getInt("my.key"));
      assertEquals(1, troupe.createSystem("").settings().config().getInt("my.key"), "the extension's config below");
    }

    @Test
    @Order(2)
    void itIsShutDownAfterItsTestAndOneFromBeforeAllAfterTheClass() {
      assertTrue(createdSystems.get(1).getWhenTerminated().toCompletableFuture().isDone(), "the first test's system");
      assertFalse(beforeAll.getWhenTerminated().toCompletableFuture().isDone(), "the class's system");
      createdSystems.add(troupe.createSystem(""));
    }
  }

  @Test
  void systemNamesAreValidAndUnique() {
    String a = ActorSystemExtension.systemName("My Test#weird(name)");
    String b = ActorSystemExtension.systemName("My Test#weird(name)");
    assertTrue(a.matches("[A-Za-z0-9][A-Za-z0-9_-]*"), a);
    assertNotSame(a, b);
    assertTrue(!a.equals(b), a + " vs " + b);
  }
}
