/**
 * Service-provider interfaces between the public API and the runtime that implements it. Types
 * here are implemented by the runtime and called by the API; application code does not use them.
 */
package dev.troupe.actor.spi;
