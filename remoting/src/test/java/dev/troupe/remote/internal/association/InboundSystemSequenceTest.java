package dev.troupe.remote.internal.association;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The receiving half of exactly-once system messages: in order, once, per sender incarnation. */
class InboundSystemSequenceTest {
  private final InboundSystemSequence in = new InboundSystemSequence();
  private final List<String> delivered = new ArrayList<>();

  private long receive(long uid, long seq) {
    return in.receive(uid, seq, () -> delivered.add(uid + ":" + seq));
  }

  @Test
  void onlyTheNextNumberIsDeliveredAndTheAnswerIsTheLastDelivered() {
    assertEquals(1, receive(7, 1));
    assertEquals(1, receive(7, 3)); // after a gap: waits for 2 to be resent
    assertEquals(2, receive(7, 2));
    assertEquals(2, receive(7, 1)); // a resend of what had arrived
    assertEquals(3, receive(7, 3));
    assertEquals(List.of("7:1", "7:2", "7:3"), delivered);
    assertEquals(1, in.duplicates());
    assertEquals(3, in.deliveries());
  }

  @Test
  void aNewIncarnationStartsAtOneAndTheOldOneNeverComesBack() {
    receive(7, 1);
    receive(7, 2);
    assertEquals(1, receive(9, 1)); // the sender restarted
    assertEquals(-1, receive(7, 3), "a late frame of the replaced incarnation is ignored, not acknowledged");
    assertEquals(2, receive(9, 2), "the new incarnation's numbering went on undisturbed");
    assertEquals(2, receive(9, 1));
    assertEquals(List.of("7:1", "7:2", "9:1", "9:2"), delivered);
  }
}
