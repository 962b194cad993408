/**
 * Remoting's public types: the events it publishes on the event stream ({@link
 * dev.troupe.remote.Dropped} for every message it drops, {@link
 * dev.troupe.remote.RemotingLifecycleEvent}s as links to other nodes come and go).
 */
package dev.troupe.remote;
