package dev.troupe.actor;

/**
 * A message that could not be delivered (the recipient is stopped or never existed, or its bounded
 * mailbox was full), published on the event stream.
 *
 * @param message the message
 * @param sender its sender, or dead letters
 * @param recipient the intended recipient
 */
public record DeadLetter(Object message, ActorRef sender, ActorRef recipient) {}
