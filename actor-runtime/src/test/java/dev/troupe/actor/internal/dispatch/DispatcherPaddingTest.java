package dev.troupe.actor.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * Every mailbox reads its dispatcher's batch settings and executor on every run, from every
 * thread; the collector copies the dispatcher next to some mailbox that one thread writes on every
 * message. The fields must therefore keep 128 bytes from both ends of the object and from every
 * mutable field of the subclasses, on the layout of the running VM, for every dispatcher kind.
 */
class DispatcherPaddingTest {

  @Test
  void batchSettingsAndExecutorArePaddedInEveryKind() throws ReflectiveOperationException {
    for (Class<?> kind :
        new Class<?>[] {
          Dispatcher.class,
          BalancingDispatcher.class,
          PinnedDispatcher.class,
          CallingThreadDispatcher.class
        }) {
      assertHotFieldsIsolated(kind);
    }
  }

  private static void assertHotFieldsIsolated(Class<?> kind) throws ReflectiveOperationException {
    ClassLayout layout = ClassLayout.parseClass(kind);
    String printable = "\n" + layout.toPrintable();
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    int hot = 0;
    for (FieldLayout f : layout.fields()) {
      if (f.hostClass().endsWith(".DispatcherHotFields")) {
        lo = Math.min(lo, f.offset());
        hi = Math.max(hi, f.offset() + f.size());
        hot++;
      }
    }
    assertTrue(hot == 4, kind + ": expected the four hot fields" + printable);
    assertTrue(lo >= 128, kind + ": hot fields start at byte " + lo + printable);
    assertTrue(layout.instanceSize() - hi >= 128, kind + ": hot fields end at byte " + hi + printable);
    for (FieldLayout f : layout.fields()) {
      boolean mutable =
          !Modifier.isFinal(
              Class.forName(f.hostClass()).getDeclaredField(f.name()).getModifiers());
      boolean near = f.offset() + f.size() + 128 > lo && f.offset() < hi + 128;
      assertTrue(
          !(mutable && near && !f.name().matches("p\\d{3}")),
          kind + ": mutable " + f.hostClass() + "." + f.name() + " at byte " + f.offset()
              + " is within 128 bytes of the hot fields" + printable);
    }
  }
}
