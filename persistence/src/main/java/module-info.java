/**
 * Event sourcing: persistent actors that store the events that change their state and recover it
 * by replaying them, snapshots, and the journal and snapshot store SPI with in-memory and file
 * plugins.
 */
module dev.troupe.persistence {
  requires transitive dev.troupe.actor;
  requires dev.troupe.remoting;
  requires org.slf4j;

  exports dev.troupe.persistence;
  exports dev.troupe.persistence.spi;
}
