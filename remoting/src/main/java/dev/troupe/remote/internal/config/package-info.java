/**
 * Remoting's settings ({@code troupe.remote.*}), read once when the provider starts: the bottom of
 * remoting's layers, which every other package reads and which reads none of them.
 */
package dev.troupe.remote.internal.config;
