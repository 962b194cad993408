/**
 * Event sourcing for typed actors: {@code EventSourcedBehavior}, on the journals and snapshot
 * stores of {@code dev.troupe.persistence}.
 */
module dev.troupe.persistence.typed {
  requires transitive dev.troupe.persistence;
  requires transitive dev.troupe.actor.typed;
  requires org.slf4j;

  exports dev.troupe.persistence.typed;
  exports dev.troupe.persistence.typed.javadsl;
}
