package dev.troupe.actor.typed;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.typed.internal.ActorRefAdapter;
import dev.troupe.actor.typed.internal.TypedRefView;
import dev.troupe.actor.typed.internal.TypedSystem;
import java.util.Objects;

/**
 * Typed refs to text and back, for a serializer of one's own (protobuf, a hand-written binary
 * format) whose messages hold refs: Troupe's Jackson serialization writes and reads typed refs by
 * itself and needs none of this.
 *
 * <pre>{@code
 * ActorRefResolver resolver = ActorRefResolver.get(system);
 * String text = resolver.toSerializationFormat(replyTo);       // troupe://shop@127.0.0.1:25520/user/cart#42
 * ActorRef<Reply> back = resolver.resolveActorRef(text);       // on this node or another
 * }</pre>
 *
 * <p>The text is the ref's full path with its uid, as remoting sends it, so another node of the
 * cluster resolves it to the same actor (the text carries the node's address where remoting is on;
 * without remoting it resolves only in its own system). Resolving never blocks: a path nothing lives
 * at, or whose uid names an earlier incarnation of the actor, resolves to a ref whose messages go to
 * dead letters. One resolver serves any number of threads; {@link #get} is cheap (keep the resolver
 * or get it each time).
 */
public final class ActorRefResolver {
  private static final TypedRefView VIEW = new TypedRefView();

  private final TypedSystem<?> system;

  private ActorRefResolver(TypedSystem<?> system) {
    this.system = system;
  }

  /**
   * @param system the system whose refs are written and read
   * @return a resolver for it
   */
  public static ActorRefResolver get(ActorSystem<?> system) {
    Objects.requireNonNull(system, "system");
    return new ActorRefResolver((TypedSystem<?>) system);
  }

  /**
   * @param ref a ref of an actor (this node's or another's)
   * @param <T> what it accepts
   * @return its full path with uid, e.g. {@code troupe://shop@127.0.0.1:25520/user/cart#42}
   * @throws IllegalArgumentException for a ref that stands for nothing on another node: a message
   *     adapter, the event stream, {@code ignoreRef()}, a testkit inbox's ref
   */
  public <T> String toSerializationFormat(ActorRef<T> ref) {
    Objects.requireNonNull(ref, "ref");
    return VIEW.toClassic(ref).path().toSerializationFormat();
  }

  /**
   * @param serialized text made by {@link #toSerializationFormat} (here or on another node)
   * @param <T> what the actor accepts (unchecked: the text does not say)
   * @return the ref; never null
   * @throws IllegalArgumentException if the text is not a full actor path
   */
  public <T> ActorRef<T> resolveActorRef(String serialized) {
    Objects.requireNonNull(serialized, "serialized");
    ActorPath path = ActorPath.fromString(serialized);
    return new ActorRefAdapter<>(system.spi().resolveActorRef(path));
  }
}
