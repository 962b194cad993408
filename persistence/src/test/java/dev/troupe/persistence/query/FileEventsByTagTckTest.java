package dev.troupe.persistence.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The TCK against {@code currentEventsByTag} on the file journal's index of tags. */
public class FileEventsByTagTckTest extends CurrentEventsByTagTckTest {
  private Path dir;

  @Override
  String journalConfig() {
    try {
      dir = Files.createTempDirectory("troupe-tag-tck");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "troupe.persistence.journal.plugin = \"troupe.persistence.journal.file\"\n"
        + "troupe.persistence.journal.file.fsync = off\n"
        + "troupe.persistence.journal.file.dir = \"" + dir.toString().replace('\\', '/') + "\"\n";
  }

  @Override
  void afterStop() throws IOException {
    if (dir != null) {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
