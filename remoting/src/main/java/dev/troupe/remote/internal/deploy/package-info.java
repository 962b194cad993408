/**
 * Remote deployment: {@code /remote} on every node, the requests that create a child on another
 * node and the refs and supervision that go with it. Above the associations and death watch; it
 * knows the provider only as its {@link dev.troupe.remote.internal.deploy.DeploymentHost}.
 */
package dev.troupe.remote.internal.deploy;
