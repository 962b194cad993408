package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.cluster.internal.inmemory.InMemoryProviderFactory;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the cluster module's descriptor: the engines' packages stay unexported, both engines are
 * provided as services, and JGroups is required but never re-exported to users.
 */
class ClusterModuleDescriptorTest {
  private static ModuleDescriptor descriptor() throws Exception {
    Path where = Path.of(JGroupsProviderFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return ModuleFinder.of(where).find("dev.troupe.cluster").orElseThrow().descriptor();
  }

  @Test
  void onlyTheApiAndTheSpiAreExported() throws Exception {
    ModuleDescriptor d = descriptor();
    assertEquals(
        Set.of("dev.troupe.cluster", "dev.troupe.cluster.sharding", "dev.troupe.cluster.singleton",
            "dev.troupe.cluster.pubsub", "dev.troupe.cluster.routing", "dev.troupe.cluster.spi"),
        d.exports().stream().filter(e -> !e.isQualified()).map(Exports::source).collect(Collectors.toSet()));
    // the core's package, only to remoting: its serialization registry instantiates the cluster's
    // serializer; sharding's, only to micrometer: it publishes the count of hand-overs
    assertEquals(
        Set.of("dev.troupe.cluster.internal.core -> [dev.troupe.remoting]",
            "dev.troupe.cluster.internal.sharding -> [dev.troupe.micrometer]"),
        d.exports().stream().filter(Exports::isQualified).map(e -> e.source() + " -> " + e.targets())
            .collect(Collectors.toSet()));
    assertTrue(d.opens().isEmpty(), "nothing is opened");
  }

  @Test
  void bothEnginesAreProvidedAndJGroupsStaysInside() throws Exception {
    ModuleDescriptor d = descriptor();
    List<String> providers =
        d.provides().stream()
            .filter(p -> p.service().equals("dev.troupe.cluster.spi.MembershipProviderFactory"))
            .flatMap(p -> p.providers().stream())
            .toList();
    assertEquals(List.of(JGroupsProviderFactory.class.getName(), InMemoryProviderFactory.class.getName()), providers);
    assertEquals(
        List.of("dev.troupe.cluster.internal.core.ClusterServiceDirectory"),
        d.provides().stream()
            .filter(p -> p.service().equals("dev.troupe.actor.spi.ServiceDirectory"))
            .flatMap(p -> p.providers().stream())
            .toList(),
        "the directory that makes the typed receptionist cluster-wide");
    Requires jgroups = d.requires().stream().filter(r -> r.name().equals("org.jgroups")).findFirst().orElseThrow();
    assertTrue(jgroups.modifiers().isEmpty(), "org.jgroups is required, not transitively: " + jgroups);
  }
}
