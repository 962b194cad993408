package dev.troupe.persistence.internal.state;

import static org.junit.jupiter.api.Assertions.assertSame;

import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.state.DurableStateStore;
import org.junit.jupiter.api.Test;

/** The in-memory durable state store: the contract, and that it is the default store. */
class DurableStateInMemoryStoreTest extends DurableStateStoreContract {
  @Override
  DurableStateStore newStore(ActorSystem in) {
    return closeLater(new InMemoryDurableStateStore(in, com.typesafe.config.ConfigFactory.empty()));
  }

  @Test
  void itIsTheDefaultStoreAndKeepsTheObjectsThemselves() {
    Persistence p = Persistence.get(system);
    DurableStateStore s = p.durableStateStoreFor("");
    assertSame(InMemoryDurableStateStore.class, s.getClass());
    assertSame(s, p.durableStateStoreFor("troupe.persistence.state.inmem"), "one instance per plugin");
    Object state = new StringBuilder("not serializable, not copied");
    upsert(s, "a", 1, state);
    assertSame(state, get(s, "a").value().orElseThrow());
  }
}
