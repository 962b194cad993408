package dev.troupe.executors;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The fields that every thread reads on every task (the pool's and each worker's references) and
 * the ones a worker writes on every task must keep 128 bytes (two cache lines, covering the
 * adjacent-line prefetcher) from both ends of their object, so that no neighbour the collector
 * copies next to it, and no other group of the same object, shares their lines. Checked on the
 * layout of the running VM, so a field added to the wrong class layer, or a pad removed, fails
 * here rather than in a benchmark that turns slow after some collections.
 */
class HotFieldPaddingTest {
  static final int GAP = 128;

  @Test
  void poolHotFieldsArePaddedOnBothSides() {
    assertLayerIsolated(AffinityPool.class, "AffinityPoolHotFields", "parallelism", "runState");
  }

  @Test
  void workerFieldGroupsArePaddedFromEachOtherAndTheEnds() {
    assertLayerIsolated(AffinityWorker.class, "WorkerStateField", "state");
    assertLayerIsolated(AffinityWorker.class, "WorkerOwnerFields", "next", "tasksRun");
    assertLayerIsolated(AffinityWorker.class, "WorkerRefs", "queue", "thread");
  }

  @Test
  void idleCountIsPaddedOnBothSides() {
    assertLayerIsolated(IdleWorkers.class, "IdleWorkersField", "count", "lookout");
  }

  /**
   * Asserts that the fields declared by the class layer {@code layer} (which must include {@code
   * expected}) lie at least GAP bytes from the object's ends (the header is written by locking and
   * identity hashing) and from every mutable field of another layer.
   */
  static void assertLayerIsolated(Class<?> type, String layer, String... expected) {
    ClassLayout layout = ClassLayout.parseClass(type);
    String printable = "\n" + layout.toPrintable();
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    Set<String> names = new HashSet<>();
    for (FieldLayout f : layout.fields()) {
      if (inLayer(f, layer)) {
        lo = Math.min(lo, f.offset());
        hi = Math.max(hi, f.offset() + f.size());
        names.add(f.name());
      }
    }
    assertTrue(names.containsAll(List.of(expected)), type + ": layer " + layer + " has " + names + printable);
    assertTrue(lo >= GAP, type + ": " + layer + " starts at byte " + lo + ", within " + GAP + " of the header" + printable);
    long size = layout.instanceSize();
    assertTrue(size - hi >= GAP, type + ": " + layer + " ends at byte " + hi + " of " + size + printable);
    for (FieldLayout f : layout.fields()) {
      if (inLayer(f, layer) || f.name().matches("p\\d{3}") || isFinal(f)) {
        continue; // a final field is written once: it cannot take the layer's lines from a reader
      }
      boolean before = f.offset() + f.size() + GAP <= lo;
      boolean after = f.offset() >= hi + GAP;
      assertTrue(before || after, type + ": " + f.hostClass() + "." + f.name() + " at byte " + f.offset() + " is within " + GAP + " bytes of " + layer + printable);
    }
  }

  private static boolean isFinal(FieldLayout f) {
    try {
      return Modifier.isFinal(Class.forName(f.hostClass()).getDeclaredField(f.name()).getModifiers());
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("no field " + f.hostClass() + "." + f.name(), e);
    }
  }

  private static boolean inLayer(FieldLayout f, String layer) {
    String host = f.hostClass();
    return host.equals(layer) || host.endsWith("." + layer);
  }
}
