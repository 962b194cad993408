package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.Decider;
import dev.troupe.actor.DeciderBuilder;
import dev.troupe.actor.Directive;
import dev.troupe.actor.RemoteCause;
import dev.troupe.actor.SupervisorStrategy;
import java.nio.channels.ClosedSelectorException;
import org.junit.jupiter.api.Test;

/** How a decider built with {@link DeciderBuilder} picks its case, local failures and remote ones. */
class DeciderBuilderTest {
  /** A failure of another node, as remoting delivers it (the class name only). */
  static final class Remote extends RuntimeException implements RemoteCause {
    private static final long serialVersionUID = 1L;
    private final String original;

    Remote(String original) {
      super("on another node");
      this.original = original;
    }

    @Override
    public String originalClassName() {
      return original;
    }

    @Override
    public boolean expectedFailure() {
      return false;
    }
  }

  private final Decider decider =
      DeciderBuilder.match(IllegalStateException.class, e -> SupervisorStrategy.resume())
          .orMatchRemote(IllegalStateException.class, e -> SupervisorStrategy.restart())
          .orMatchRemote(ArithmeticException.class, e -> e instanceof RemoteCause ? SupervisorStrategy.stop() : null)
          .build();

  @Test
  void aRemoteCaseMatchesTheOriginalClassAndItsSubclassesByName() {
    assertEquals(Directive.RESTART, decider.decide(new Remote("java.lang.IllegalStateException")));
    assertEquals(Directive.RESTART, decider.decide(new Remote(ClosedSelectorException.class.getName())), "a subclass");
    assertEquals(Directive.STOP, decider.decide(new Remote("java.lang.ArithmeticException")));
  }

  @Test
  void aLocalCaseDoesNotMatchARemoteFailureNorARemoteCaseALocalOne() {
    assertEquals(Directive.RESUME, decider.decide(new IllegalStateException("here")));
    assertEquals(Directive.RESUME, decider.decide(new ClosedSelectorException()));
    assertEquals(Directive.ESCALATE, decider.decide(new ArithmeticException("here")), "no local case for it");
  }

  @Test
  void anOriginalThatCannotBeLoadedHereOrIsUnrelatedMatchesNothing() {
    assertEquals(Directive.ESCALATE, decider.decide(new Remote("com.example.NotOnThisNode")));
    assertEquals(Directive.ESCALATE, decider.decide(new Remote("java.lang.IllegalArgumentException")));
  }
}
