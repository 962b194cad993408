package dev.troupe.actor;

import static dev.troupe.actor.TestSupport.await;
import static dev.troupe.actor.TestSupport.inContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.TestSupport.Probe;
import dev.troupe.pattern.Patterns;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ActorContext: children, parent, stopping children, become/unbecome. */
class ActorContextTest {
  private final TestSupport.Systems systems = new TestSupport.Systems();

  @AfterEach
  void tearDown() {
    systems.close();
  }

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
  void actorOfCreatesChildrenThatCanBeListedFoundAndStopped() throws Throwable {
    ActorSystem sys = systems.create("children");
    ActorRef parent = sys.actorOf(Props.create(TestSupport.ContextActor.class), "parent");
    ActorRef c1 = (ActorRef) inContext(parent, ctx -> ctx.actorOf(Props.create(Noop.class), "c1"));
    ActorRef c2 = (ActorRef) inContext(parent, ctx -> ctx.actorOf(Props.create(Noop.class)));
    assertEquals(parent.path(), c1.path().parent());
    assertEquals(Set.of(c1, c2), inContext(parent, ActorContextTest::children));
    assertEquals(Optional.of(c1), inContext(parent, ctx -> ctx.findChild("c1")));
    assertEquals(Optional.empty(), inContext(parent, ctx -> ctx.findChild("nobody")));
    assertEquals(parent, await(Patterns.ask(c1, "parent?", TestSupport.TIMEOUT)));
    assertEquals(sys.actorSelection("/user").resolveOne(TestSupport.TIMEOUT).toCompletableFuture().get(),
        inContext(parent, ActorContext::getParent));

    Probe w = new Probe(sys);
    w.watch(c1);
    inContext(parent, ctx -> {
      ctx.stop(c1);
      return "stopping";
    });
    assertEquals(c1, w.expectMsgClass(Terminated.class).actor());
    assertEquals(Set.of(c2), inContext(parent, ActorContextTest::children));
    assertEquals(Optional.empty(), inContext(parent, ctx -> ctx.findChild("c1")));
  }

  @Test
  void theContextExposesSelfSystemPropsAndDispatcher() throws Throwable {
    ActorSystem sys = systems.create("ctxmisc");
    Props props = Props.create(TestSupport.ContextActor.class);
    ActorRef a = sys.actorOf(props, "me");
    assertEquals(a, inContext(a, ActorContext::getSelf));
    assertEquals(sys, inContext(a, ActorContext::getSystem));
    assertEquals(sys, inContext(a, ActorContext::system));
    assertEquals(props, inContext(a, ActorContext::getProps));
    assertTrue(inContext(a, ActorContext::dispatcher) instanceof java.util.concurrent.Executor);
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

  private static String send(ActorRef a, String command) throws Throwable {
    a.tell(command, ActorRef.noSender());
    return (String) await(Patterns.ask(a, "state?", TestSupport.TIMEOUT));
  }

  @Test
  void becomeWithoutDiscardOldStacksBehavioursThatUnbecomePops() throws Throwable {
    ActorSystem sys = systems.create("become");
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("initial", send(a, "noop"));
    assertEquals("happy", send(a, "push-happy"));
    assertEquals("sad", send(a, "push-sad"));
    assertEquals("happy", send(a, "unbecome"));
    assertEquals("initial", send(a, "unbecome"));
    assertEquals("initial", send(a, "unbecome"), "the initial behaviour is never popped");
  }

  @Test
  void becomeWithDiscardOldReplacesTheCurrentBehaviour() throws Throwable {
    ActorSystem sys = systems.create("becomediscard");
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("happy", send(a, "push-happy"));
    assertEquals("angry", send(a, "replace-angry")); // replaces happy
    assertEquals("initial", send(a, "unbecome"));
    assertEquals("angry", send(a, "replace-angry"));
    assertEquals("angry", send(a, "replace-angry"));
    assertEquals("initial", send(a, "unbecome"), "repeated replacing does not grow the stack");
  }

  @Test
  void becomeWithAProcedureHandlesEveryMessage() throws Throwable {
    ActorSystem sys = systems.create("becomeproc");
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    a.tell("procedure", ActorRef.noSender());
    assertEquals("procedure:state?", await(Patterns.ask(a, "state?", TestSupport.TIMEOUT)));
    assertEquals("initial", send(a, "unbecome"));
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
  void anUntypedActorCanBecomeAProcedureAndUnbecomeBackToOnReceive() throws Throwable {
    ActorSystem sys = systems.create("untypedbecome");
    ActorRef t = sys.actorOf(Props.create(Toggle.class));
    assertEquals("onReceive:1", await(Patterns.ask(t, 1, TestSupport.TIMEOUT)));
    t.tell("switch", ActorRef.noSender());
    assertEquals("other:2", await(Patterns.ask(t, 2, TestSupport.TIMEOUT)));
    t.tell("switch", ActorRef.noSender());
    assertEquals("onReceive:3", await(Patterns.ask(t, 3, TestSupport.TIMEOUT)));
  }

  @Test
  void aRestartResetsTheBehaviourToTheInitialOne() throws Throwable {
    ActorSystem sys = systems.create("becomerestart");
    ActorRef a = sys.actorOf(Props.create(Moody.class));
    assertEquals("happy", send(a, "push-happy"));
    assertEquals("initial", send(a, "fail"), "the restarted instance still had the old behaviour");
  }
}
