/**
 * Reading the cluster's settings (not exported): what the runtime's {@code ConfigReader} does not
 * cover, with the same error messages, each naming the full key.
 */
package dev.troupe.cluster.internal.config;
