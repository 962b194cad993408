package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Props: constructor lookup at create(), creators, and actors made outside actorOf. */
class PropsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Greeter extends UntypedActor {
    private final String greeting;
    private final int times;

    Greeter(String greeting, int times) {
      this.greeting = greeting;
      this.times = times;
    }

    @Override
    public void onReceive(Object message) {
      getSender().tell(greeting.repeat(times) + message, getSelf());
    }
  }

  abstract static class Abstract extends UntypedActor {}

  final class Inner extends UntypedActor { // deliberately not static
    @Override
    public void onReceive(Object message) {}
  }

  @Test
  void createFindsTheConstructorMatchingTheArgumentsIncludingPrimitives(ActorSystem sys, TestKit kit) {
    Props props = Props.create(Greeter.class, "hi ", 2);
    assertEquals(Greeter.class, props.actorClass());
    ActorRef g = sys.actorOf(props);
    assertEquals("hi hi bob", kit.awaitResult(Patterns.ask(g, "bob", RuntimeFixtures.TIMEOUT)));
  }

  @Test
  void createWithoutAMatchingConstructorNamesTheClassAndArgumentTypes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Props.create(Greeter.class, 2, "hi "));
    assertTrue(e.getMessage().contains(Greeter.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains("java.lang.Integer") && e.getMessage().contains("java.lang.String"), e.getMessage());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Props.create(Greeter.class));
    assertTrue(none.getMessage().contains(Greeter.class.getName()), none.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Props.create(Greeter.class, null, 1, 2));
    assertThrows(IllegalArgumentException.class, () -> Props.create(Greeter.class, "x", null), "null for an int");
  }

  static final class TwoWays extends UntypedActor {
    TwoWays(String name) {}

    TwoWays(long id, java.util.List<String> tags) {}

    @Override
    public void onReceive(Object message) {}
  }

  @Test
  void createWithoutAMatchingConstructorListsTheConstructorsThatExist() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Props.create(TwoWays.class, 3));
    String m = e.getMessage();
    assertTrue(m.contains(TwoWays.class.getName()), "names the class: " + m);
    assertTrue(m.contains("[java.lang.Integer]"), "names the argument types given: " + m);
    assertTrue(m.contains("(java.lang.String)"), "lists the one-argument constructor: " + m);
    assertTrue(m.contains("(long, java.util.List)"), "lists the two-argument constructor: " + m);
  }

  @Test
  void createRejectsAbstractClassesAndNonStaticInnerClasses() {
    IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> Props.create(Abstract.class));
    assertTrue(a.getMessage().contains(Abstract.class.getName()) && a.getMessage().contains("abstract"), a.getMessage());
    IllegalArgumentException i = assertThrows(IllegalArgumentException.class, () -> Props.create(Inner.class, this));
    assertTrue(i.getMessage().contains(Inner.class.getName()) && i.getMessage().contains("static"), i.getMessage());
  }

  @Test
  void createWithACreatorCallsItForTheInstance(ActorSystem sys, TestKit kit) {
    String greeting = "yo ";
    ActorRef g = sys.actorOf(Props.create(Greeter.class, () -> new Greeter(greeting, 1)));
    assertEquals("yo ann", kit.awaitResult(Patterns.ask(g, "ann", RuntimeFixtures.TIMEOUT)));
  }

  /** Builds props for a child with a creator that captures this actor. */
  static final class Capturing extends UntypedActor {
    private final String prefix = "p";

    @Override
    public void onReceive(Object message) {
      Object result;
      try {
        result = Props.create(Greeter.class, () -> new Greeter(prefix, 1)); // captures 'this'
      } catch (IllegalArgumentException e) {
        result = e;
      }
      getSender().tell(result, getSelf());
    }
  }

  @Test
  void aCreatorThatClosesOverAnEnclosingActorIsRejected(ActorSystem sys, TestKit kit) {
    ActorRef c = sys.actorOf(Props.create(Capturing.class));
    Object r = kit.awaitResult(Patterns.ask(c, "go", RuntimeFixtures.TIMEOUT));
    IllegalArgumentException e = assertInstanceOf(IllegalArgumentException.class, r);
    assertTrue(e.getMessage().contains(Capturing.class.getName()), e.getMessage());
  }

  @Test
  void constructingAnActorWithNewOutsideActorOfFails() {
    ActorInitializationException e = assertThrows(ActorInitializationException.class, () -> new Greeter("x", 1));
    assertTrue(e.getMessage().contains(Greeter.class.getName()), e.getMessage());
  }

  @Test
  void aCreatorThatFailsOrReturnsNullStopsTheActor(ActorSystem sys) {
    TestProbe w = new TestProbe(sys);
    ActorRef a = sys.actorOf(Props.create(Greeter.class, () -> {
      throw new IllegalStateException("no");
    }));
    ActorRef b = sys.actorOf(Props.create(Greeter.class, () -> null));
    w.watch(a);
    w.watch(b);
    java.util.Set<ActorRef> gone = new java.util.HashSet<>();
    gone.add(w.expectMsgClass(Terminated.class).actor());
    gone.add(w.expectMsgClass(Terminated.class).actor());
    assertEquals(java.util.Set.of(a, b), gone);
  }

  @Test
  void propsAreImmutableAndCarryDispatcherAndMailbox() {
    Props base = Props.create(Greeter.class, "a", 1);
    Props d = base.withDispatcher("d").withMailbox("m");
    assertEquals(null, base.dispatcher());
    assertEquals(null, base.mailbox());
    assertEquals("d", d.dispatcher());
    assertEquals("m", d.mailbox());
    Object[] args = base.args();
    args[0] = "changed";
    assertEquals("a", base.args()[0]);
  }
}
