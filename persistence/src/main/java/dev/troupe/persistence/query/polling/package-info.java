/** {@link dev.troupe.persistence.query.polling.PollingReadJournal}: the queries over any journal plugin. */
package dev.troupe.persistence.query.polling;
