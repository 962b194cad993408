/**
 * The system's event stream for typed actors: {@link dev.troupe.actor.typed.eventstream.EventStream}
 * commands told to {@link dev.troupe.actor.typed.ActorSystem#eventStream()}.
 */
package dev.troupe.actor.typed.eventstream;
