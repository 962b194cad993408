/**
 * The remote provider ({@code troupe.actor.provider = remote}), on top of remoting's layers: it
 * makes the transport, the associations, death watch across nodes and remote deployment, resolves
 * paths to local or remote refs, and delivers what arrives (deserialized, checked in untrusted
 * mode). The runtime finds it through {@link
 * dev.troupe.remote.internal.provider.RemoteProviderFactory}; a provider of the cluster wraps it
 * through the public remoting SPI.
 */
package dev.troupe.remote.internal.provider;
