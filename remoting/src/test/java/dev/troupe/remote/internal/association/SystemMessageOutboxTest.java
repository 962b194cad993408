package dev.troupe.remote.internal.association;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.remote.internal.transport.OutboundEnvelope;
import dev.troupe.remote.internal.transport.SequencedEnvelope;
import dev.troupe.serialization.Serialized;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sender's half of exactly-once system messages: numbering, writing, acks, rewinds, resets. */
class SystemMessageOutboxTest {
  private static OutboundEnvelope envelope(int i) {
    return new OutboundEnvelope(null, null, null, "m" + i, new Serialized(2, "", new byte[] {(byte) i}));
  }

  private static List<Long> writeAll(SystemMessageOutbox o) {
    List<Long> seqs = new ArrayList<>();
    SequencedEnvelope s;
    while ((s = o.nextToWrite()) != null) {
      seqs.add(s.seq());
    }
    return seqs;
  }

  @Test
  void messagesAreNumberedFromOneAndWrittenOnceUntilARewind() {
    SystemMessageOutbox o = new SystemMessageOutbox(100);
    for (int i = 0; i < 3; i++) {
      assertTrue(o.offer(envelope(i), 0));
    }
    assertTrue(o.hasUnwritten());
    assertEquals(List.of(1L, 2L, 3L), writeAll(o));
    assertFalse(o.hasUnwritten());
    assertNull(o.nextToWrite());
    o.rewind();
    assertEquals(List.of(1L, 2L, 3L), writeAll(o), "a rewind writes everything unacknowledged again");
  }

  @Test
  void anAcknowledgementReleasesEverythingUpToItsNumber() {
    SystemMessageOutbox o = new SystemMessageOutbox(100);
    for (int i = 0; i < 5; i++) {
      o.offer(envelope(i), 0);
    }
    writeAll(o);
    assertEquals(3, o.acked(3, 10));
    assertEquals(0, o.acked(2, 11), "an older acknowledgement releases nothing");
    assertEquals(2, o.size());
    assertEquals(3, o.acknowledged());
    o.rewind();
    assertEquals(List.of(4L, 5L), writeAll(o));
    o.acked(5, 12);
    assertFalse(o.waiting());
    o.offer(envelope(6), 13);
    assertEquals(List.of(6L), writeAll(o), "numbering goes on after an empty buffer");
  }

  @Test
  void theRingGrowsAndKeepsItsOrderAcrossWrapAround() {
    SystemMessageOutbox o = new SystemMessageOutbox(10_000);
    long expectNext = 1;
    for (int round = 0; round < 50; round++) {
      for (int i = 0; i < 37 * (round % 5 + 1); i++) {
        assertTrue(o.offer(envelope(i), 0));
      }
      List<Long> written = writeAll(o);
      for (long seq : written) {
        assertEquals(expectNext++, seq);
      }
      o.acked(written.get(written.size() / 2), 0); // half acknowledged: the ring's head moves
      o.rewind();
      List<Long> again = writeAll(o);
      assertEquals(written.get(written.size() / 2) + 1, again.get(0));
      assertEquals(written.get(written.size() - 1), again.get(again.size() - 1));
    }
  }

  @Test
  void aFullBufferRefusesAndAResetStartsOver() {
    SystemMessageOutbox o = new SystemMessageOutbox(3);
    OutboundEnvelope first = envelope(0);
    assertTrue(o.offer(first, 0));
    assertTrue(o.offer(envelope(1), 0));
    assertTrue(o.offer(envelope(2), 0));
    assertFalse(o.offer(envelope(3), 0), "the fourth unacknowledged message does not fit");
    List<OutboundEnvelope> lost = o.reset();
    assertEquals(3, lost.size());
    assertSame(first, lost.get(0));
    assertEquals(0, o.size());
    assertTrue(o.offer(envelope(4), 0));
    assertEquals(List.of(1L), writeAll(o), "a new sequence starts at 1");
  }

  @Test
  void theOldestWaitRestartsWithEachAcknowledgement() {
    SystemMessageOutbox o = new SystemMessageOutbox(10);
    assertEquals(0, o.oldestWaitNanos(500));
    o.offer(envelope(0), 100);
    o.offer(envelope(1), 200);
    assertEquals(400, o.oldestWaitNanos(500));
    o.acked(1, 600);
    assertEquals(100, o.oldestWaitNanos(700), "progress restarts the clock of the give-up timeout");
  }
}
