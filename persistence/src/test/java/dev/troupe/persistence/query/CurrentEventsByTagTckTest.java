package dev.troupe.persistence.query;

import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.spi.AtomicWrite;
import dev.troupe.persistence.spi.PersistentRepr;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * The TCK against {@code currentEventsByTag}: each publisher reads a fresh tag whose events were
 * stored first, spread over three persistence ids.
 */
public class CurrentEventsByTagTckTest extends QueryTck {
  @Override
  public Flow.Publisher<EventEnvelope> createFlowPublisher(long elements) {
    String tag = storedEvents(0); // a fresh name
    try {
      for (long i = 1; i <= elements; i++) {
        String id = tag + "-" + (i % 3);
        long seq = (i + 2) / 3;
        Persistence.get(system).journalFor("").write(List.of(new AtomicWrite(id,
                new ArrayList<>(List.of(new PersistentRepr(id, seq, "event-" + i, 0, Set.of(tag)))))))
            .toCompletableFuture().get(5, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return queries.currentEventsByTag(tag, Offset.noOffset());
  }
}
