/**
 * What both sides of every benchmark share: the message types (plain Java records and singletons,
 * so Troupe and Pekko move exactly the same objects), the completion signal, the dispatcher
 * configuration of each implementation, and small measuring helpers.
 */
package dev.troupe.bench.common;
