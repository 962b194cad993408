/**
 * Point-to-point reliable delivery between typed actors: a {@link
 * dev.troupe.actor.typed.delivery.ProducerController} next to the producer and a {@link
 * dev.troupe.actor.typed.delivery.ConsumerController} next to the consumer number the messages,
 * keep the producer within the demand the consumer side grants, resend what was lost and drop
 * duplicates, so that the consumer gets every message once, in order (at least once across a
 * replaced consumer controller).
 */
package dev.troupe.actor.typed.delivery;
