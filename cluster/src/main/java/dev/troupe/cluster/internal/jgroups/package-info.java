/**
 * The embedded membership engine, {@code troupe.cluster.membership.provider = jgroups}: a JGroups
 * channel on one fixed stack built in code (TCP on its own port, TCPPING discovery from the seed
 * endpoints, FD_SOCK2 + FD_ALL3 + VERIFY_SUSPECT, MERGE3, GMS). Not exported; found as a service.
 * A member whose watched connection closed and whose failure the group then confirmed is reported
 * {@code confirmedDead} (see {@code Reporter}); silence is only ever a suspicion.
 */
package dev.troupe.cluster.internal.jgroups;
