/**
 * The runtime's telemetry: per-dispatcher histograms, per-actor-class counters, sampled mailbox
 * probes and their JMX view. It measures and never calls what it measures: a mailbox's owner is an
 * opaque value handed to the system's identify function.
 */
package dev.troupe.actor.internal.telemetry;
