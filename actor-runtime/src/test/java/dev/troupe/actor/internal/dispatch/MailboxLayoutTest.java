package dev.troupe.actor.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;

/**
 * The telemetry probe field costs an idle actor nothing: with compressed references it takes the
 * 4 bytes the object's 8-byte alignment left over, so a mailbox is as big as before it (56 bytes).
 */
class MailboxLayoutTest {
  @Test
  void probeFieldFitsTheAlignmentGap() {
    ClassLayout layout = ClassLayout.parseClass(Mailbox.class);
    String printable = "\n" + layout.toPrintable();
    long refSize = org.openjdk.jol.vm.VM.current().sizeOfField("java.lang.Object");
    if (refSize == 4) {
      assertEquals(56, layout.instanceSize(), "mailbox size with compressed references" + printable);
    }
  }
}
