/** The engine of typed actors: not API. */
package dev.troupe.actor.typed.internal;
