package dev.troupe.actor;

/**
 * A message an actor did not handle, published on the event stream.
 *
 * @param message the message
 * @param sender its sender
 * @param recipient the actor that did not handle it
 */
public record UnhandledMessage(Object message, ActorRef sender, ActorRef recipient) {}
