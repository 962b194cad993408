package dev.troupe.remote.internal.association;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bounded memory of incarnations that are over: the last {@value RecentUids#CAPACITY}, oldest forgotten first. */
class RecentUidsTest {
  @Test
  void keepsTheLastCapacityUidsAndForgetsTheOldest() {
    RecentUids uids = new RecentUids();
    int n = RecentUids.CAPACITY * 3 + 5;
    for (long uid = 1; uid <= n; uid++) {
      assertTrue(uids.add(uid));
      assertTrue(uids.size() <= RecentUids.CAPACITY);
    }
    assertEquals(RecentUids.CAPACITY, uids.size());
    for (long uid = n - RecentUids.CAPACITY + 1; uid <= n; uid++) {
      assertTrue(uids.contains(uid), "kept: " + uid);
    }
    assertFalse(uids.contains(n - RecentUids.CAPACITY), "forgotten: the oldest beyond the bound");
    assertFalse(uids.contains(1));
  }

  @Test
  void aUidAlreadyKeptAndUidZeroAreNotAdded() {
    RecentUids uids = new RecentUids();
    assertTrue(uids.add(7));
    assertFalse(uids.add(7));
    assertFalse(uids.add(0));
    assertFalse(uids.contains(0));
    assertEquals(1, uids.size());
  }
}
