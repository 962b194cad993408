package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.Recorder;
import dev.troupe.cluster.internal.Recorder.Dead;
import dev.troupe.cluster.internal.Recorder.Report;
import dev.troupe.cluster.internal.Recorder.Suspected;
import dev.troupe.cluster.internal.Recorder.Unsuspected;
import dev.troupe.cluster.internal.Recorder.ViewReport;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Reporter} fed JGroups' views, suspicions and closed connections directly, one node in
 * a view through two channels (a join that timed out but was let in, then the node's next join):
 * what it reports about the node when the left-over channel dies, and when the node's only channel
 * does. Each test ends with a view that marks the end of what it fed, so that the reports before
 * it are all the reporter made.
 */
class ReporterTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String NAME = "reporter-test";

  private final Recorder rec = new Recorder("troupe-cluster-jgroups-" + NAME);
  private final Reporter reporter = new Reporter(rec, NAME, Duration.ofSeconds(30));
  private final UniqueAddress a = Contexts.node("rep", 1, 1);
  private final UniqueAddress n = Contexts.node("rep", 2, 2);
  private final Address ca = channel(a);
  private long version;

  ReporterTest() {
    reporter.open();
  }

  @AfterEach
  void stop() {
    reporter.stop();
  }

  @Test
  void theSuspicionOfALeftOverChannelIsNotTheNodesAndTheNextChannelStandsForIt() {
    Address leftOver = channel(n);
    Address live = channel(n);
    Address c = channel(Contexts.node("rep", 3, 3));
    view(ca, leftOver, live);
    reporter.suspected(List.of(leftOver));
    view(ca, leftOver, live, c); // another change before the view drops the left-over: it stays out of standing
    assertEquals(List.of(), notViews(), "the left-over channel's suspicion is not the node's");

    reporter.suspected(List.of(live)); // the live channel stands for the node: its suspicion is the node's
    view(ca, live, c);
    assertEquals(List.of(new Suspected(n)), notViews(), "the live channel's suspicion is the node's");
  }

  @Test
  void aClosedLeftOverChannelDroppedFromTheViewIsNoDeath() {
    Address leftOver = channel(n);
    Address live = channel(n);
    view(ca, leftOver, live);
    reporter.socketClosed(leftOver);
    view(ca, live);
    view(ca, live, channel(Contexts.node("rep", 3, 3))); // a marker
    assertEquals(List.of(), notViews(), "the node is alive through its second channel");
  }

  @Test
  void theNodesOnlyChannelClosedThenDroppedIsStillADeath() {
    Address only = channel(n);
    view(ca, only);
    reporter.socketClosed(only);
    view(ca);
    view(ca, channel(Contexts.node("rep", 3, 3))); // a marker
    assertEquals(List.of(new Dead(n)), notViews());
  }

  @Test
  void aSuspicionWhoseChannelTheViewDropsIsWithdrawnWhileTheNodeStaysThroughAnother() {
    Address first = channel(n);
    view(ca, first);
    reporter.suspected(List.of(first));
    Address second = channel(n); // the node joined again before the view dropped its first channel
    view(ca, first, second);
    view(ca, second);
    view(ca, second, channel(Contexts.node("rep", 3, 3))); // a marker
    assertEquals(List.of(new Suspected(n), new Unsuspected(n)), notViews(),
        "suspected for its first channel, not any more once that channel is gone and the node is still in the view");
  }

  // ---------------------------------------------------------------------------------------------

  private static Address channel(UniqueAddress node) {
    return MemberIdentity.address(MemberIdentity.encode(node, Set.of()));
  }

  /** Installs a view of these channels, the next version, and waits until it is reported. */
  private void view(Address... members) {
    long v = ++version;
    reporter.view(new View(new ViewId(members[0], v), List.of(members)));
    rec.awaitView("version " + v, x -> x.version() == v, WAIT);
  }

  private List<Report> notViews() {
    rec.assertPromisesKept();
    return rec.reports().stream().filter(r -> !(r instanceof ViewReport)).toList();
  }
}
