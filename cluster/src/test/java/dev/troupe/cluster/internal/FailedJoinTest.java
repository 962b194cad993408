package dev.troupe.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.inmemory.InMemoryProviderFactory;
import dev.troupe.cluster.internal.jgroups.JGroupsProviderFactory;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import dev.troupe.cluster.spi.MembershipProvider;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A join that reaches no member fails, and the engine may join again: the cluster's core calls
 * {@code join} on the same engine at its next seed round (a seed whose engine was slow to answer on
 * a busy machine, or gone meanwhile), so an engine that refused every later join would leave the
 * node outside the cluster for good. Both engines.
 */
@Timeout(60)
class FailedJoinTest {
  private static final Duration CHANGE = Duration.ofSeconds(15);
  private final List<MembershipProvider> engines = new ArrayList<>();

  @AfterEach
  void closeAll() {
    engines.forEach(MembershipProvider::close);
  }

  private MembershipProvider engine(MembershipProviderFactory f, UniqueAddress self) {
    MembershipProvider e = f.create(Contexts.context(self, Set.of(), "troupe.cluster.jgroups.join-timeout = 300ms"));
    engines.add(e);
    return e;
  }

  @Test
  void aJGroupsEngineJoinsAfterAFailedJoin() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    rejoins(new JGroupsProviderFactory(), "jgroupsretry", "127.0.0.1:" + closedPort, "troupe-cluster-jgroups-");
  }

  @Test
  void anInMemoryEngineJoinsAfterAFailedJoin() throws Exception {
    rejoins(new InMemoryProviderFactory(), "inmemoryretry", "in-memory:42", "troupe-cluster-in-memory-");
  }

  private void rejoins(MembershipProviderFactory f, String system, String nobody, String thread) throws Exception {
    UniqueAddress founder = Contexts.node(system, 25520, 1);
    UniqueAddress joiner = Contexts.node(system, 25521, 2);
    Recorder first = new Recorder(thread);
    String endpoint = engine(f, founder).join(List.of(), first);

    MembershipProvider e = engine(f, joiner);
    Recorder rec = new Recorder(thread);
    assertThrows(ConnectException.class, () -> e.join(List.of(nobody), rec));
    e.join(List.of(endpoint), rec); // the next seed round

    for (Recorder r : List.of(first, rec)) {
      r.awaitLastView("both nodes", v -> Recorder.nodes(v).equals(List.of(founder, joiner)), CHANGE);
      r.assertPromisesKept();
    }
    assertEquals(List.of(founder, joiner), Recorder.nodes(rec.lastView()));
  }
}
