/**
 * Persistence for typed actors: event sourcing ({@code EventSourcedBehavior}, on the journals and
 * snapshot stores of {@code dev.troupe.persistence}) and durable state ({@code
 * DurableStateBehavior}, on its durable state stores).
 */
module dev.troupe.persistence.typed {
  requires transitive dev.troupe.persistence;
  requires transitive dev.troupe.actor.typed;
  requires org.slf4j;

  exports dev.troupe.persistence.typed;
  exports dev.troupe.persistence.typed.javadsl;
  exports dev.troupe.persistence.typed.state.javadsl;
}
