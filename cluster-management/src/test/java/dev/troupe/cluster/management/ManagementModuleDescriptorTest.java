package dev.troupe.cluster.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the module's descriptor: one package exported, nothing opened, and Netty and Jackson
 * required but never passed on to users (no type of theirs is in the module's API).
 */
class ManagementModuleDescriptorTest {
  @Test
  void onlyTheApiIsExportedAndItsLibrariesStayInside() throws Exception {
    Path where = Path.of(ClusterHttpManagement.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ModuleDescriptor d = ModuleFinder.of(where).find("dev.troupe.cluster.management").orElseThrow().descriptor();
    assertEquals(Set.of("dev.troupe.cluster.management"), d.exports().stream().map(Exports::source).collect(Collectors.toSet()));
    assertTrue(d.exports().stream().noneMatch(Exports::isQualified));
    assertTrue(d.opens().isEmpty(), "nothing is opened");
    d.requires().stream().filter(r -> r.name().startsWith("io.netty") || r.name().startsWith("com.fasterxml"))
        .forEach(r -> assertTrue(r.modifiers().isEmpty(), "required, not transitively: " + r));
  }
}
