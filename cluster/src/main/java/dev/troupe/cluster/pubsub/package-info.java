/**
 * Publish-subscribe across the cluster: {@link dev.troupe.cluster.pubsub.DistributedPubSub}
 * starts each member's mediator; {@link dev.troupe.cluster.pubsub.DistributedPubSubMediator} holds
 * what it understands (topics with optional groups, actors put under a path); its settings come
 * from {@code troupe.cluster.pub-sub}.
 */
package dev.troupe.cluster.pubsub;
