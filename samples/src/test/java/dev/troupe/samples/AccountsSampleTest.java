package dev.troupe.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The accounts sample: a second run on the same directory recovers what the first stored. */
class AccountsSampleTest {
  @TempDir
  Path dir;

  @Test
  void aSecondRunRecoversTheBalanceAndAnOverdraftIsRefused() {
    String first = Launcher.run(0, "accounts", "--dir", dir.toString(), "--deposit", "100", "--deposit", "50", "--withdraw", "30");
    assertTrue(first.contains("account main: recovered balance 0"), first);
    assertTrue(first.contains("deposited 100: balance 100") && first.contains("deposited 50: balance 150"), first);
    assertTrue(first.contains("withdrew 30: balance 120"), first);
    assertTrue(Files.isDirectory(dir.resolve("journal")), "the journal's directory under --dir");

    String second = Launcher.run(0, "accounts", "--dir", dir.toString(), "--snapshot-every", "2", "--withdraw", "500", "--withdraw", "20");
    assertTrue(second.contains("account main: recovered balance 120"), second);
    assertTrue(second.contains("refused to withdraw 500: the balance is 120"), second);
    assertTrue(second.contains("withdrew 20: balance 100"), second);

    String third = Launcher.run(0, "accounts", "--dir", dir.toString());
    assertTrue(third.contains("account main: recovered balance 100"), "from the snapshot the second run took: " + third);
    assertTrue(Files.isDirectory(dir.resolve("snapshots")), "the snapshots' directory under --dir");

    String other = Launcher.run(0, "accounts", "--dir", dir.toString(), "--account", "savings");
    assertTrue(other.contains("account savings: recovered balance 0"), "another account has its own history: " + other);
  }

  @Test
  void aNonPositiveAmountIsAUsageError() {
    String out = Launcher.run(Launcher.USAGE_ERROR, "accounts", "--dir", dir.toString(), "--deposit", "0");
    assertTrue(out.contains("--deposit must be at least 1 cent, was 0"), out);
  }
}
