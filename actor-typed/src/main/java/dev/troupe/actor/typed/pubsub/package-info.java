/** Publish and subscribe for typed actors: {@link dev.troupe.actor.typed.pubsub.Topic}. */
package dev.troupe.actor.typed.pubsub;
