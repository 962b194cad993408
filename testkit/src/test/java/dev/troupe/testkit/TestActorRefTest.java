package dev.troupe.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link TestActorRef}: a tell is handled on the test's thread before it returns and the actor's
 * state is there to read; {@code receive} throws the actor's exception to the test and leaves the
 * actor as it was, where a tell's failure restarts it; what the actor sends itself runs after the
 * current message on the same thread; replies reach a probe; a stopped actor has no instance.
 */
@ExtendWith(ActorSystemExtension.class)
class TestActorRefTest {
  /** Adds what it is told; answers "total"; fails on a negative amount or on "io". */
  public static final class Counter extends AbstractActor {
    int total;
    final List<String> threads = new ArrayList<>();

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Integer.class, n -> {
            if (n < 0) {
              throw new IllegalArgumentException("negative: " + n);
            }
            threads.add(Thread.currentThread().getName());
            total += n;
          })
          .matchEquals("io", m -> {
            throw new IOException("the disk is full");
          })
          .matchEquals("twice", m -> {
            getSelf().tell(1, getSelf()); // runs after this message, on this thread
            total += 1;
          })
          .matchEquals("total", m -> getSender().tell(total, getSelf()))
          .build();
    }
  }

  @Test
  void aTellIsHandledOnTheTestsThreadBeforeItReturns(ActorSystem system) {
    TestActorRef<Counter> ref = TestActorRef.create(system, Props.create(Counter.class), "counter");
    ref.tell(3, ActorRef.noSender());
    ref.tell(4, ActorRef.noSender());
    Counter counter = ref.underlyingActor();
    assertEquals(7, counter.total, "no waiting: both were handled inside tell");
    assertEquals(List.of(Thread.currentThread().getName(), Thread.currentThread().getName()), counter.threads);
    assertEquals("/user/counter", ref.path().toStringWithoutAddress());
    assertEquals(ref.getRef(), ref, "the same actor as its plain ref");
    ref.tell("twice", ActorRef.noSender());
    assertEquals(9, counter.total, "what it told itself ran after the message, before tell returned");
  }

  @Test
  void receiveThrowsTheActorsExceptionToTheTestAndLeavesTheActorAsItWas(ActorSystem system) {
    TestActorRef<Counter> ref = TestActorRef.create(system, Props.create(Counter.class));
    ref.receive(5);
    Counter before = ref.underlyingActor();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ref.receive(-1));
    assertEquals("negative: -1", e.getMessage());
    IOException io = assertThrows(IOException.class, () -> ref.receive("io"), "a checked exception as it is");
    assertEquals("the disk is full", io.getMessage());
    assertSame(before, ref.underlyingActor(), "not restarted");
    assertEquals(5, ref.underlyingActor().total);
  }

  @Test
  void aTellsFailureGoesToTheSupervisorWhichRestartsTheActor(ActorSystem system) {
    TestActorRef<Counter> ref = TestActorRef.create(system, Props.create(Counter.class));
    ref.tell(5, ActorRef.noSender());
    Counter before = ref.underlyingActor();
    ref.tell(-1, ActorRef.noSender());
    TestKit kit = new TestKit(system);
    kit.awaitCond("the supervisor restarted the actor", () -> ref.underlyingActor() != before);
    assertNotSame(before, ref.underlyingActor());
    assertEquals(0, ref.underlyingActor().total, "a restarted actor starts afresh");
  }

  @Test
  void repliesReachTheSenderAndAStoppedActorHasNoInstance(ActorSystem system, TestKit kit) {
    TestActorRef<Counter> ref = TestActorRef.create(system, Props.create(Counter.class));
    ref.tell(2, ActorRef.noSender());
    ref.receive("total", kit.getRef());
    kit.expectMsg(2);
    assertEquals(ref, kit.getLastSender());
    kit.watch(ref);
    ref.tell(PoisonPill.getInstance(), ActorRef.noSender());
    kit.expectTerminated(ref);
    IllegalStateException e = assertThrows(IllegalStateException.class, ref::underlyingActor);
    assertTrue(e.getMessage().contains("no actor instance"), e.getMessage());
  }
}
