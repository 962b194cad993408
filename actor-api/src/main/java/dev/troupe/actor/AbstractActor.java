package dev.troupe.actor;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * An actor whose behaviour is built with {@link #receiveBuilder()}:
 *
 * <pre>{@code
 * public final class Counter extends AbstractActor {
 *   private int n;
 *   @Override public Receive createReceive() {
 *     return receiveBuilder()
 *         .match(Integer.class, i -> n += i)
 *         .matchEquals("get", m -> getSender().tell(n, getSelf()))
 *         .build();
 *   }
 * }
 * }</pre>
 *
 * A message no case matches goes to {@link #unhandled(Object)}.
 */
public abstract class AbstractActor extends Actor {

  /** Binds the instance to its cell; see {@link Actor#Actor()}. */
  protected AbstractActor() {}

  /** @return a new builder of behaviours */
  public final ReceiveBuilder receiveBuilder() {
    return ReceiveBuilder.create();
  }

  /**
   * A behaviour: an ordered list of cases, the first that matches a message handles it. Immutable;
   * build one with {@link ReceiveBuilder}.
   */
  public static final class Receive {
    private final Case[] cases;

    Receive(Case[] cases) {
      this.cases = cases;
    }

    /**
     * A behaviour that hands every message to one procedure.
     *
     * @param handler the procedure
     * @return the behaviour
     */
    public static Receive of(Procedure<Object> handler) {
      return new Receive(new Case[] {new Case(null, null, Objects.requireNonNull(handler))});
    }

    /**
     * Applies this behaviour to a message.
     *
     * @param message the message
     * @return {@code true} if a case matched and handled it
     * @throws Exception whatever the handler threw
     */
    public boolean receive(Object message) throws Exception {
      for (Case c : cases) {
        if (c.matches(message)) {
          c.handler.apply(message);
          return true;
        }
      }
      return false;
    }

    /**
     * This behaviour followed by another: messages this one does not match go to {@code other}.
     *
     * @param other the fallback
     * @return the combined behaviour
     */
    public Receive orElse(Receive other) {
      Case[] all = Arrays.copyOf(cases, cases.length + other.cases.length);
      System.arraycopy(other.cases, 0, all, cases.length, other.cases.length);
      return new Receive(all);
    }

    @Override
    public String toString() {
      return "Receive[" + cases.length + " cases]";
    }
  }

  /** One case of a behaviour; a null type matches anything. */
  static final class Case {
    final Class<?> type;
    final Predicate<Object> filter;
    final Procedure<Object> handler;

    Case(Class<?> type, Predicate<Object> filter, Procedure<Object> handler) {
      this.type = type;
      this.filter = filter;
      this.handler = handler;
    }

    boolean matches(Object message) {
      return (type == null || type.isInstance(message))
          && (filter == null || filter.test(message));
    }
  }
}
