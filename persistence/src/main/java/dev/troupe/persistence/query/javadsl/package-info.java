/**
 * The queries a read journal can offer, one interface each, so that a plugin implements the ones
 * its store can answer and a caller asks for the ones it needs ({@code
 * PersistenceQuery.get(system).getReadJournalFor(...)}).
 *
 * <p>A query named {@code current...} completes once it has handed over what was stored when it
 * started; the others go on, handing over what is stored later, until cancelled.
 */
package dev.troupe.persistence.query.javadsl;
