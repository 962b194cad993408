package dev.troupe.persistence.query;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.GetObjectResult;
import dev.troupe.persistence.state.DurableStateStoreRegistry;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The durable state queries on the in-memory store, and on a store that keeps no offsets. */
class DurableStateQueryInMemoryTest extends DurableStateQueryContract {
  @Override
  String storeConfig() {
    return "";
  }

  /** A store of someone else's that implements only the required SPI. */
  public static final class NoOffsets implements DurableStateStore {
    public NoOffsets(dev.troupe.actor.ActorSystem system, com.typesafe.config.Config config) {}

    @Override
    public CompletionStage<GetObjectResult> getObject(String persistenceId) {
      return CompletableFuture.completedFuture(GetObjectResult.empty());
    }

    @Override
    public CompletionStage<Void> upsertObject(String persistenceId, long revision, Object value, String tag) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> deleteObject(String persistenceId, long revision) {
      return CompletableFuture.completedFuture(null);
    }
  }

  @Test
  void aStoreThatKeepsNoOffsetsFailsItsQueriesSayingSo() throws Exception {
    dev.troupe.actor.ActorSystem other = system("plain { class = \"" + NoOffsets.class.getName() + "\" }");
    try {
      DurableStateStoreQuery<String> q = DurableStateStoreRegistry.get(other).durableStateStoreQueryFor("plain");
      SubscriberProbe<DurableStateChange<String>> probe = new SubscriberProbe<>();
      q.changes("t", Offset.noOffset()).subscribe(probe);
      probe.request(1);
      UnsupportedOperationException e = probe.expectError(UnsupportedOperationException.class);
      assertTrue(e.getMessage().contains(NoOffsets.class.getName()), e.getMessage());
      SubscriberProbe<DurableStateChange<String>> current = new SubscriberProbe<>();
      q.currentChanges("t", Offset.noOffset()).subscribe(current);
      current.request(1);
      current.expectError(UnsupportedOperationException.class);
    } finally {
      dev.troupe.testkit.TestKit.shutdownActorSystem(other);
    }
  }
}
