package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.VERIFY_SUSPECT;
import org.jgroups.stack.Protocol;
import org.jgroups.util.DefaultThreadFactory;
import org.jgroups.util.ThreadFactory;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HeardVerifySuspect} between two stand-ins: below, a layer that swallows what is sent (so
 * no probe is ever answered, as with a member whose answer is late or lost); above, a layer that
 * records the events that come up. The suspicions come up the way FD_ALL3 sends them, and so do
 * the {@code UNSUSPECT}s FD_ALL3 sends when it hears a suspected member again.
 */
class HeardVerifySuspectTest {
  private static final long TIMEOUT_MS = 200;
  /** How long a confirmation may take on a loaded machine: the timeout and the timer thread's turn. */
  private static final long WAIT_S = 10;

  private final Below below = new Below();
  private final Above above = new Above();
  private final HeardVerifySuspect verify = new HeardVerifySuspect();
  private final Address self = UUID.randomUUID();

  HeardVerifySuspectTest() {
    verify.setTimeout(TIMEOUT_MS);
    verify.setAddress(self);
    verify.setDownProtocol(below);
    verify.setUpProtocol(above);
  }

  @AfterEach
  void stop() {
    verify.stop();
  }

  @Test
  void aMemberHeardDuringItsVerificationIsNotConfirmedAndTheUnsuspectGoesOnUp() throws Exception {
    Address late = UUID.randomUUID();
    Address silent = UUID.randomUUID();
    verify.up(suspect(late));
    verify.up(new Event(Event.UNSUSPECT, late)); // FD_ALL3 heard it: a heartbeat, any message
    verify.up(suspect(silent)); // verified after `late`: its confirmation comes after late's would have

    Collection<Address> confirmed = above.suspects.poll(WAIT_S, TimeUnit.SECONDS);
    assertNotNull(confirmed, "the silent member is confirmed within " + WAIT_S + " s");
    assertEquals(List.of(silent), List.copyOf(confirmed),
        "the member heard during its verification must not be confirmed dead with (or before) the silent one");
    assertTrue(above.unsuspects.contains(late), "the UNSUSPECT is passed on up: " + above.unsuspects);
    assertEquals(List.of(late, silent), below.probed, "each suspect is still asked once (the wire is unchanged)");
  }

  @Test
  void aSilentMemberIsConfirmedAtTheTimeoutWhateverElseIsHeard() throws Exception {
    Address silent = UUID.randomUUID();
    Address other = UUID.randomUUID();
    long start = System.nanoTime();
    verify.up(suspect(silent));
    verify.up(new Event(Event.UNSUSPECT, other)); // heard: but it is not the one under verification

    Collection<Address> confirmed = above.suspects.poll(WAIT_S, TimeUnit.SECONDS);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertNotNull(confirmed, "a member that sends nothing is confirmed within " + WAIT_S + " s");
    assertEquals(List.of(silent), List.copyOf(confirmed));
    assertTrue(tookMs >= TIMEOUT_MS - 20, "not before its timeout: " + tookMs + " ms");
  }

  @Test
  void itKeepsVerifySuspectsProtocolIdSoThatItsHeadersAreTheSameOnTheWire() {
    assertEquals(ClassConfigurator.getProtocolId(VERIFY_SUSPECT.class), verify.getId());
  }

  private static Event suspect(Address member) {
    return new Event(Event.SUSPECT, new ArrayList<>(List.of(member))); // FD_ALL3 sends a mutable list
  }

  /** Swallows every message (no probe is answered) and gives VERIFY_SUSPECT a thread factory. */
  private static final class Below extends Protocol {
    final List<Address> probed = new ArrayList<>();
    private final ThreadFactory threads = new DefaultThreadFactory("verify-test", true);

    @Override
    public synchronized Object down(Message msg) {
      probed.add(msg.getDest());
      return null;
    }

    @Override
    public Object down(Event evt) {
      return null;
    }

    @Override
    public ThreadFactory getThreadFactory() {
      return threads;
    }
  }

  /** Records the confirmed suspicions and the unsuspicions that come up. */
  private static final class Above extends Protocol {
    final BlockingQueue<Collection<Address>> suspects = new LinkedBlockingQueue<>();
    final List<Address> unsuspects = new CopyOnWriteArrayList<>();

    @Override
    public Object up(Event evt) {
      if (evt.getType() == Event.SUSPECT) {
        suspects.add(List.copyOf(evt.<Collection<Address>>getArg()));
      } else if (evt.getType() == Event.UNSUSPECT) {
        unsuspects.add(evt.getArg());
      }
      return null;
    }
  }
}
