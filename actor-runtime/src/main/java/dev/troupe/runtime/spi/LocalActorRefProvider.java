package dev.troupe.runtime.spi;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Props;
import java.util.function.Supplier;

/**
 * The local half of every system, and the whole of a local-only one: it owns the guardians
 * ({@code /}, {@code /user}, {@code /system}), dead letters, the temporary refs of asks under
 * {@code /temp}, and resolves paths of its own address against the live actor tree. A networked
 * provider builds one with {@link RuntimeSystem#newLocalProvider} and delegates to it for
 * everything local; this interface is what such a provider calls beyond {@link ActorRefProvider}.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface LocalActorRefProvider extends ActorRefProvider {

  /** @return the root guardian {@code /} */
  InternalActorRef rootGuardian();

  /** @return dead letters */
  InternalActorRef deadLetters();

  /**
   * Resolves a path of this system against the live tree (and the temporary refs of asks).
   *
   * @param path a path whose address is this system's
   * @return the actor with that name and uid (any uid when the path has none), or a ref that
   *     sends to dead letters and answers a watch with {@code Terminated}
   */
  InternalActorRef resolveLocal(ActorPath path);

  /**
   * Creates and starts an actor outside the guardians' tree, at {@code path}, whose parent and
   * supervisor is {@code supervisor}: a ref of any kind, e.g. the deploying parent on another node.
   * The actor's failures and its death notice go to {@code supervisor}, which also answers {@code
   * getParent()}; path lookups find it (and its children) until it terminates; the system stops it
   * when it terminates, after {@code /user} and before {@code /system}.
   *
   * @param props the props (not a router)
   * @param path a path of this system outside {@code /user}, {@code /system} and {@code /temp},
   *     with the uid the actor gets
   * @param supervisor the parent
   * @return the actor's ref, started
   * @throws dev.troupe.actor.InvalidActorNameException if an actor lives at that path, or the path
   *     is inside the guardians' tree
   * @throws dev.troupe.actor.ConfigurationException if the props name an unknown dispatcher or
   *     mailbox
   * @throws IllegalStateException if the system is terminating
   */
  InternalActorRef actorOfSupervisedBy(Props props, ActorPath path, InternalActorRef supervisor);

  /**
   * Delivers a selection that arrived from another node, resolving it from the root guardian on
   * the calling thread, within the bounds of {@code troupe.actor.selection} (beyond them nothing
   * is delivered and the message goes to dead letters, with a rate-limited warning). A networked
   * provider calls it off its network threads: the walk may take a while on a large tree.
   *
   * @param selection the selection and its message
   * @param sender the sender, as a ref of the provider's
   */
  void deliverSelection(ActorSelectionMessage selection, ActorRef sender);

  /**
   * Fails the ask whose temporary reply ref is {@code ref} with {@code cause}, when {@code ref} is
   * one of this system's and the ask is still waiting: a transport calls it when it dropped the
   * ask's message, so that the ask need not wait out its timeout. The ask fails on the default
   * dispatcher (never on the caller's thread, which may be a network thread: stages chained without
   * {@code *Async} run where the future completes).
   *
   * @param ref the sender of a message that will not arrive; anything else is ignored
   * @param why what the ask fails with; called only when {@code ref} is a waiting ask
   * @return whether {@code ref} is a waiting ask of this system's
   */
  boolean failAsk(ActorRef ref, Supplier<? extends Throwable> why);
}
