/**
 * The receptionist: find typed actors by {@link dev.troupe.actor.typed.receptionist.ServiceKey};
 * local to a system, and replaceable (e.g. cluster-wide) through {@link
 * dev.troupe.actor.typed.receptionist.ReceptionistFactory}.
 */
package dev.troupe.actor.typed.receptionist;
