package dev.troupe.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorSystem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

class ActorSystemExtensionTest {
  static final List<ActorSystem> perMethodSystems = new ArrayList<>();
  static final List<ActorSystem> perClassSystems = new ArrayList<>();

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

  @Test
  void systemNamesAreValidAndUnique() {
    String a = ActorSystemExtension.systemName("My Test#weird(name)");
    String b = ActorSystemExtension.systemName("My Test#weird(name)");
    assertTrue(a.matches("[A-Za-z0-9][A-Za-z0-9_-]*"), a);
    assertNotSame(a, b);
    assertTrue(!a.equals(b), a + " vs " + b);
  }
}
