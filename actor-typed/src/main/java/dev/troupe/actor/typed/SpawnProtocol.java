package dev.troupe.actor.typed;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Behaviors;
import java.util.Objects;

/**
 * A behaviour that spawns children on request and answers with their refs: the way to start actors
 * from outside any actor, by asking a system whose guardian runs it.
 *
 * <pre>{@code
 * ActorSystem<SpawnProtocol.Command> system = ActorSystem.create(SpawnProtocol.create(), "app");
 * CompletionStage<ActorRef<Greeter.Greet>> greeter = AskPattern.ask(system,
 *     replyTo -> new SpawnProtocol.Spawn<>(Greeter.create(), "greeter", Props.empty(), replyTo),
 *     Duration.ofSeconds(3), system.scheduler());
 * }</pre>
 *
 * <p>A name already taken by a child gets a suffix ({@code greeter-1}, {@code greeter-2}, ...), so
 * a second {@code Spawn} of a name starts a second actor; an empty name spawns an anonymous child.
 * A name that is not a valid actor name is refused when the {@code Spawn} is made.
 */
public final class SpawnProtocol {
  private SpawnProtocol() {}

  /** What the behaviour accepts. */
  public sealed interface Command permits Spawn {}

  /**
   * Spawns a child and tells its ref to {@code replyTo}.
   *
   * @param behavior the child's behaviour
   * @param name its name ({@code ""}: anonymous); a taken name gets a suffix
   * @param props its dispatcher and mailbox
   * @param replyTo who gets the child's ref
   * @param <T> what the child accepts
   */
  public record Spawn<T>(Behavior<T> behavior, String name, Props props, ActorRef<ActorRef<T>> replyTo)
      implements Command {
    /**
     * @param behavior not null
     * @param name not null; empty, or a valid actor name not starting with {@code $}
     * @param props not null
     * @param replyTo not null
     */
    public Spawn {
      Objects.requireNonNull(behavior, "behavior");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(props, "props");
      Objects.requireNonNull(replyTo, "replyTo");
      if (!name.isEmpty() && (!ActorPath.isValidPathElement(name) || name.startsWith("$"))) {
        throw new InvalidActorNameException("invalid actor name [" + name + "] for SpawnProtocol.Spawn: use ASCII"
            + " letters, digits and -_.*+:@&=,!~'; (or %XX escapes), not starting with '$'; or \"\" for an"
            + " anonymous child");
      }
    }

    /**
     * A spawn with default props.
     *
     * @param behavior the child's behaviour
     * @param name its name ({@code ""}: anonymous)
     * @param replyTo who gets the child's ref
     */
    public Spawn(Behavior<T> behavior, String name, ActorRef<ActorRef<T>> replyTo) {
      this(behavior, name, Props.empty(), replyTo);
    }
  }

  /** @return the behaviour: spawns a child for each {@link Spawn} */
  public static Behavior<Command> create() {
    return Behaviors.receive((ctx, command) -> {
      if (command instanceof Spawn<?> s) {
        spawn(ctx, s);
      }
      return Behaviors.same();
    });
  }

  private static <T> void spawn(ActorContext<Command> ctx, Spawn<T> s) {
    if (s.name().isEmpty()) {
      s.replyTo().tell(ctx.spawnAnonymous(s.behavior(), s.props()));
      return;
    }
    String name = s.name();
    for (int i = 1; ; i++) {
      if (ctx.getChild(name).isEmpty()) {
        try {
          s.replyTo().tell(ctx.spawn(s.behavior(), name, s.props()));
          return;
        } catch (InvalidActorNameException stillReserved) {
          // a child of that name is stopping: its name is not free yet; try the next suffix
        }
      }
      name = s.name() + "-" + i;
    }
  }
}
