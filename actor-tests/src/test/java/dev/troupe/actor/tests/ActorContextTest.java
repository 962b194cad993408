package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.TIMEOUT;
import static dev.troupe.actor.tests.RuntimeFixtures.inContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorContext;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.Terminated;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import dev.troupe.testkit.TestProbe;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The ActorContext: children, parent, stopping children, become/unbecome. */
class ActorContextTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Noop extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if ("parent?".equals(message)) {
        getSender().tell(getContext().getParent(), getSelf());
      }
    }
  }

  private static Set<ActorRef> children(ActorContext ctx) {
    Set<ActorRef> out = new HashSet<>();
    ctx.getChildren().forEach(out::add);
    return out;
  }

  @Test
  void actorOfCreatesChildrenThatCanBeListedFoundAndStopped(ActorSystem sys, TestKit kit) {
    ActorRef parent = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "parent");
    ActorRef c1 = (ActorRef) inContext(kit, parent, ctx -> ctx.actorOf(Props.create(Noop.class), "c1"));
    ActorRef c2 = (ActorRef) inContext(kit, parent, ctx -> ctx.actorOf(Props.create(Noop.class)));
    assertEquals(parent.path(), c1.path().parent());
    assertEquals(Set.of(c1, c2), inContext(kit, parent, ActorContextTest::children));
    assertEquals(Optional.of(c1), inContext(kit, parent, ctx -> ctx.findChild("c1")));
    assertEquals(Optional.empty(), inContext(kit, parent, ctx -> ctx.findChild("nobody")));
    assertEquals(parent, kit.awaitResult(Patterns.ask(c1, "parent?", TIMEOUT)));
    assertEquals(kit.awaitResult(sys.actorSelection("/user").resolveOne(TIMEOUT)),
        inContext(kit, parent, ActorContext::getParent));

    TestProbe w = new TestProbe(sys);
    w.watch(c1);
    inContext(kit, parent, ctx -> {
      ctx.stop(c1);
      return "stopping";
    });
    assertEquals(c1, w.expectMsgClass(Terminated.class).actor());
    assertEquals(Set.of(c2), inContext(kit, parent, ActorContextTest::children));
    assertEquals(Optional.empty(), inContext(kit, parent, ctx -> ctx.findChild("c1")));
  }

  @Test
  void theContextExposesSelfSystemPropsAndDispatcher(ActorSystem sys, TestKit kit) {
    Props props = Props.create(RuntimeFixtures.ContextActor.class);
    ActorRef a = sys.actorOf(props, "me");
    assertEquals(a, inContext(kit, a, ActorContext::getSelf));
    assertEquals(sys, inContext(kit, a, ActorContext::getSystem));
    assertEquals(sys, inContext(kit, a, ActorContext::system));
    assertEquals(props, inContext(kit, a, ActorContext::getProps));
    assertTrue(inContext(kit, a, ActorContext::dispatcher) instanceof java.util.concurrent.Executor);
  }

  /** "state?" answers with the current behaviour's name; commands switch behaviours. */
  static final class Moody extends AbstractActor {
    private Receive named(String name) {
      return receiveBuilder()
          .matchEquals("state?", m -> getSender().tell(name, getSelf()))
          .matchEquals("push-happy", m -> getContext().become(named("happy"), false))
          .matchEquals("push-sad", m -> getContext().become(named("sad"), false))
          .matchEquals("replace-angry", m -> getContext().become(named("angry")))
          .matchEquals("unbecome", m -> getContext().unbecome())
          .matchEquals("fail", m -> {
            throw new IllegalStateException("planned failure");
          })
          .matchEquals("procedure", m -> getContext().become(msg -> {
            if ("unbecome".equals(msg)) {
              getContext().unbecome();
            } else {
              getSender().tell("procedure:" + msg, getSelf());
            }
          }, false))
          .build();
    }

    @Override
    public Receive createReceive() {
      return named("initial");
    }
  }

  private static String send(TestKit kit, ActorRef a, String command) {
    a.tell(command, ActorRef.noSender());
    return (String) kit.awaitResult(Patterns.ask(a, "state?", TIMEOUT));
  }

  @Test
  void becomeWithoutDiscardOldStacksBehavioursThatUnbecomePops(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("initial", send(kit, a, "noop"));
    assertEquals("happy", send(kit, a, "push-happy"));
    assertEquals("sad", send(kit, a, "push-sad"));
    assertEquals("happy", send(kit, a, "unbecome"));
    assertEquals("initial", send(kit, a, "unbecome"));
    assertEquals("initial", send(kit, a, "unbecome"), "the initial behaviour is never popped");
  }

  @Test
  void becomeWithDiscardOldReplacesTheCurrentBehaviour(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("happy", send(kit, a, "push-happy"));
    assertEquals("angry", send(kit, a, "replace-angry")); // replaces happy
    assertEquals("initial", send(kit, a, "unbecome"));
    assertEquals("angry", send(kit, a, "replace-angry"));
    assertEquals("angry", send(kit, a, "replace-angry"));
    assertEquals("initial", send(kit, a, "unbecome"), "repeated replacing does not grow the stack");
  }

  @Test
  void becomeWithAProcedureHandlesEveryMessage(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    a.tell("procedure", ActorRef.noSender());
    assertEquals("procedure:state?", kit.awaitResult(Patterns.ask(a, "state?", TIMEOUT)));
    assertEquals("initial", send(kit, a, "unbecome"));
  }

  /** An UntypedActor switching to a Procedure and back. */
  static final class Toggle extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if ("switch".equals(message)) {
        getContext().become(m -> {
          if ("switch".equals(m)) {
            getContext().unbecome();
          } else {
            getSender().tell("other:" + m, getSelf());
          }
        }, false);
      } else {
        getSender().tell("onReceive:" + message, getSelf());
      }
    }
  }

  @Test
  void anUntypedActorCanBecomeAProcedureAndUnbecomeBackToOnReceive(ActorSystem sys, TestKit kit) {
    ActorRef t = sys.actorOf(Props.create(Toggle.class));
    assertEquals("onReceive:1", kit.awaitResult(Patterns.ask(t, 1, TIMEOUT)));
    t.tell("switch", ActorRef.noSender());
    assertEquals("other:2", kit.awaitResult(Patterns.ask(t, 2, TIMEOUT)));
    t.tell("switch", ActorRef.noSender());
    assertEquals("onReceive:3", kit.awaitResult(Patterns.ask(t, 3, TIMEOUT)));
  }

  @Test
  void aRestartResetsTheBehaviourToTheInitialOne(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("happy", send(kit, a, "push-happy"));
    assertEquals("initial", send(kit, a, "fail"), "the restarted instance still had the old behaviour");
  }
}
