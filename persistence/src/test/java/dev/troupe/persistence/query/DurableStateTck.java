package dev.troupe.persistence.query;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.query.javadsl.DurableStateStoreQuery;
import dev.troupe.persistence.state.DurableStateStore;
import dev.troupe.persistence.state.DurableStateStoreRegistry;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;

/**
 * The reactive-streams TCK (run by TestNG on the JUnit Platform) against the durable state queries
 * of {@link DurableStateStoreRegistry}: every publisher is a query of a fresh tag whose objects were
 * stored first, on the file store (fsync off). Batches of 3 make the queries read the store several
 * times per stream.
 */
abstract class DurableStateTck extends FlowPublisherVerification<DurableStateChange<String>> {
  private static final AtomicInteger IDS = new AtomicInteger();

  ActorSystem system;
  DurableStateStoreQuery<String> queries;
  private ActorSystem ended;
  private Flow.Publisher<DurableStateChange<String>> endedPublisher;
  private Path dir;

  DurableStateTck() {
    // as QueryTck: signals waited for up to 5 s, "no signal" checks 50 ms, a cancelled subscriber
    // collectable 1 s after its cancel
    super(new TestEnvironment(5_000, 50, 10), 1_000);
  }

  @BeforeClass
  public void startSystem() throws IOException {
    dir = Files.createTempDirectory("troupe-state-tck");
    system = ActorSystem.create("state-tck-" + IDS.incrementAndGet(), ConfigFactory.parseString(
        "troupe.persistence.state.query { max-buffer-size = 3, refresh-interval = 50ms }\n"
            + "troupe.persistence.state.plugin = \"troupe.persistence.state.file\"\n"
            + "troupe.persistence.state.file { fsync = off, dir = \"" + dir.toString().replace('\\', '/') + "\" }\n")
        .withFallback(ConfigFactory.load()));
    queries = DurableStateStoreRegistry.get(system).durableStateStoreQueryFor("");
    ended = ActorSystem.create("state-tck-ended-" + IDS.incrementAndGet());
    endedPublisher = DurableStateStoreRegistry.get(ended).<String>durableStateStoreQueryFor("")
        .changes("none", Offset.noOffset());
    TestKit.shutdownActorSystem(ended);
  }

  @AfterClass
  public void stopSystem() throws IOException {
    if (system != null) {
      TestKit.shutdownActorSystem(system);
    }
    if (dir != null) {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * Stores {@code n} objects under a fresh tag, each written twice (the query hands over only the
   * second revision).
   *
   * @return the tag
   */
  String storedChanges(long n) {
    String tag = "tck-" + IDS.incrementAndGet();
    DurableStateStore store = Persistence.get(system).durableStateStoreFor("");
    try {
      for (long i = 1; i <= n; i++) {
        String id = tag + "-" + i;
        store.upsertObject(id, 1, "first-" + i, tag).toCompletableFuture().get(5, TimeUnit.SECONDS);
        store.upsertObject(id, 2, "second-" + i, tag).toCompletableFuture().get(5, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return tag;
  }

  /** A query of a system that has terminated: it fails every subscriber at once, asked or not. */
  @Override
  public Flow.Publisher<DurableStateChange<String>> createFailedFlowPublisher() {
    return endedPublisher;
  }
}
