/**
 * The runtime's settings, read once when a system starts: the system-wide {@code troupe.*} values,
 * the bounds of a selection's walk, and the warnings for keys no {@code reference.conf} knows. Each
 * malformed value fails the start with a {@code ConfigurationException} naming the full key (the
 * typed reads are {@code dev.troupe.runtime.spi.ConfigReader}, shared with the modules that plug
 * in). Dispatchers, telemetry and shutdown parse their own sections beside their code.
 */
package dev.troupe.actor.internal.config;
