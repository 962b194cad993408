package dev.troupe.actor.internal;

import dev.troupe.actor.internal.ref.DeadLetterReason;

import dev.troupe.actor.internal.ref.RootParentRef;
import dev.troupe.actor.internal.config.SelectionSettings;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.PathGlob;
import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorNotFound;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSelection;
import dev.troupe.actor.Identify;
import dev.troupe.pattern.AskFailedException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A selection: with a local anchor, elements are resolved against the live actor tree when a
 * message is sent, on the sending thread (children containers are concurrent), so a selection
 * costs no extra hop; with an anchor on another node, the whole selection is sent there as an
 * {@link ActorSelectionMessage} and resolved by that node.
 *
 * <p>A selection without wildcards follows its elements one ref at a time; one with wildcards is
 * resolved by a {@link SelectionWalk}, iteratively and with a bounded cost, and every actor it
 * matches gets the message once. A selection beyond {@code troupe.actor.selection}'s bounds
 * delivers nothing ({@link SelectionRefusals}).
 */
final class ActorSelectionImpl extends ActorSelection {
  private final ActorSystemImpl system;
  private final InternalActorRef anchor;
  private final String[] elements;
  private final boolean wildcard;

  ActorSelectionImpl(ActorSystemImpl system, InternalActorRef anchor, List<String> elements) {
    this.system = system;
    this.anchor = anchor;
    this.elements = elements.toArray(new String[0]);
    boolean w = false;
    for (String e : this.elements) {
      w |= PathGlob.hasWildcard(e);
    }
    this.wildcard = w;
  }

  @Override
  public void tell(Object message, ActorRef sender) {
    Objects.requireNonNull(message, "message");
    if (!anchor.isLocal()) {
      anchor.tell(new ActorSelectionMessage(message, List.of(elements)), sender);
      return;
    }
    LocalActorRefProviderImpl local = system.localProvider();
    SelectionSettings limits = local.selectionSettings();
    if (!wildcard) {
      if (elements.length > limits.maxElements()) {
        local.selectionRefusals().refused(this, message, sender, SelectionWalk.tooManyElements(elements.length, limits));
        return;
      }
      InternalActorRef target = resolveExact();
      if (target != null) {
        target.tell(message, sender);
      } else {
        system.deadLetters.publish(message, sender, system.deadLetters, DeadLetterReason.NO_SUCH_ACTOR);
      }
      return;
    }
    SelectionWalk walk = new SelectionWalk(limits);
    Collection<InternalActorRef> targets = walk.resolve(anchor, elements);
    if (targets == null) {
      local.selectionRefusals().refused(this, message, sender, walk.refusal());
      return;
    }
    for (InternalActorRef target : targets) {
      target.tell(message, sender); // none matched: nothing, and no dead letter (a pattern may match none)
    }
  }

  /**
   * Without wildcards a selection names at most one actor: each element leads to at most one ref,
   * so the walk is a loop over the elements with nothing to collect.
   *
   * @return the actor, or null if the path leads nowhere
   */
  private InternalActorRef resolveExact() {
    InternalActorRef ref = anchor;
    for (String e : elements) {
      ActorCell cell = LocalActorRef.cellOf(ref);
      if (cell == null) {
        return null;
      }
      if (e.equals("..")) {
        ref = cell.parent;
        if (ref == null || ref instanceof RootParentRef) {
          return null; // above the root
        }
      } else {
        ref = cell.childByName(e);
        if (ref == null) {
          return null;
        }
      }
    }
    return ref;
  }

  @Override
  public CompletionStage<ActorRef> resolveOne(Duration timeout) {
    return system
        .ask(tmp -> tell(new Identify(null), tmp), timeout, toString())
        .handle(
            (reply, failure) -> {
              if (reply instanceof ActorIdentity id && id.ref().isPresent()) {
                return id.ref().get();
              }
              if (system.isTerminated()) {
                throw new CompletionException(system.terminatedException());
              }
              Throwable cause = failure instanceof CompletionException c && c.getCause() != null ? c.getCause() : failure;
              throw new CompletionException(
                  cause instanceof AskFailedException known ? new ActorNotFound(this, known) : new ActorNotFound(this));
            });
  }

  @Override
  public ActorRef anchor() {
    return anchor;
  }

  @Override
  public String pathString() {
    return "/" + String.join("/", elements);
  }
}
