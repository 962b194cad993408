/**
 * Event sourcing: persistent actors that store the events that change their state and recover it
 * by replaying them, snapshots, and the journal and snapshot store SPI with in-memory and file
 * plugins, durable state (the latest state of an actor, not its events) and its store SPI with
 * in-memory and file plugins, event adapters that evolve stored events, and persistence queries
 * that read a journal, or the changes of durable state, as streams.
 */
module dev.troupe.persistence {
  requires transitive dev.troupe.actor;
  requires dev.troupe.remoting;
  requires org.slf4j;

  exports dev.troupe.persistence;
  exports dev.troupe.persistence.spi;
  exports dev.troupe.persistence.journal;
  exports dev.troupe.persistence.state;
  exports dev.troupe.persistence.query;
  exports dev.troupe.persistence.query.javadsl;
  exports dev.troupe.persistence.query.polling;
}
