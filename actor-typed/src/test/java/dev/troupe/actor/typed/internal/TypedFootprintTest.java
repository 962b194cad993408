package dev.troupe.actor.typed.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.UntypedActor;
import dev.troupe.actor.typed.ActorSystem;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;

/**
 * What a typed actor costs over a classic one, checked where it can be without a benchmark: the
 * bytes of an idle one and the type test every message meets. An idle typed actor must cost at
 * most 32 bytes more than an idle classic one (the bound). An idle
 * typed actor owns two objects of its own, its classic actor ({@link TypedActor}) and its context
 * ({@link ContextImpl}); everything else it keeps (cell, mailbox, ref, path) is the classic actor's.
 * Measured on the layout of the running VM; {@code ActorCreation} with {@code impl=troupe-typed}
 * measures the same on a heap of a million actors.
 */
class TypedFootprintTest {
  /** The smallest classic actor: what a classic idle actor owns besides its cell. */
  static final class IdleClassic extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      unhandled(message);
    }
  }

  @Test
  void anIdleTypedActorOwnsAtMost32BytesMoreThanAClassicOne() {
    ClassLayout typed = ClassLayout.parseClass(TypedActor.class);
    ClassLayout ctx = ClassLayout.parseClass(ContextImpl.class);
    ClassLayout classic = ClassLayout.parseClass(IdleClassic.class);
    long extra = typed.instanceSize() + ctx.instanceSize() - classic.instanceSize();
    assertTrue(
        extra <= 32,
        "an idle typed actor owns " + extra + " bytes more than a classic one:\n"
            + typed.toPrintable() + ctx.toPrintable() + classic.toPrintable());
  }

  /**
   * Every message a typed actor receives is first tested against {@link InternalMessage}; against
   * an interface a failing test scans the message class's interfaces, which measured as more than
   * half the time of a typed ping-pong (see InternalMessage).
   */
  @Test
  void theTypeEveryMessageIsFirstTestedAgainstIsAClass() {
    assertFalse(InternalMessage.class.isInterface(), "InternalMessage must stay a class");
  }

  @Test
  void childrenOfOneBehaviourAndPropsShareTheirClassicProps() throws Exception {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "footprint");
    try {
      CompletableFuture<List<dev.troupe.actor.Props>> seen = new CompletableFuture<>();
      Behavior<String> child = Behaviors.empty();
      Props onDefault = Props.empty().withDispatcher("troupe.actor.default-dispatcher");
      Adapter.spawnAnonymous(
          Adapter.toClassic(system),
          Behaviors.<String>setup(
              c -> {
                ContextImpl<String> ctx = (ContextImpl<String>) c;
                seen.complete(
                    List.of(
                        ctx.childProps(child, Props.empty()),
                        ctx.childProps(child, Props.empty()),
                        // equal props made anew: still the same classic props
                        ctx.childProps(child, Props.empty().withDispatcher("troupe.actor.default-dispatcher")),
                        ctx.childProps(child, onDefault),
                        ctx.childProps(Behaviors.ignore(), onDefault)));
                return Behaviors.empty();
              }));
      List<dev.troupe.actor.Props> p = seen.get(10, TimeUnit.SECONDS);
      assertSame(p.get(0), p.get(1), "the same behaviour and props again");
      assertNotSame(p.get(1), p.get(2), "other props");
      assertSame(p.get(2), p.get(3), "equal props");
      assertNotSame(p.get(3), p.get(4), "another behaviour");
      assertEquals("troupe.actor.default-dispatcher", p.get(4).dispatcher());
    } finally {
      system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
