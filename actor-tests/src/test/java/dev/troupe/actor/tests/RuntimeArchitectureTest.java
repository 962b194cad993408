package dev.troupe.actor.tests;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime's shape, checked on the compiled main classes of every module on this test's class
 * path (runtime, SPI, testkit, remoting, cluster, typed, observability): the runtime's packages
 * form no cycle, the SPI imports nothing of the engine, and code outside the runtime reaches the
 * engine only through {@code dev.troupe.runtime.spi} — the same lines {@code module-info} draws on
 * the module path, here held for class-path users too.
 */
class RuntimeArchitectureTest {
  /** Every package of the engine (exported to no one but the observability modules). */
  private static final String INTERNAL = "dev.troupe.actor.internal..";

  private static final String SPI = "dev.troupe.runtime.spi..";

  /** The packages of the runtime module. */
  private static final String[] RUNTIME = {INTERNAL, SPI, "dev.troupe.dispatch.."};

  private static JavaClasses troupe;

  @BeforeAll
  static void importTroupesMainClasses() {
    troupe =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.troupe");
    Set<String> packages = troupe.stream().map(c -> c.getPackageName()).collect(Collectors.toSet());
    for (String expected :
        Set.of(
            "dev.troupe.actor.internal",
            "dev.troupe.actor.internal.dispatch",
            "dev.troupe.runtime.spi",
            "dev.troupe.remote.internal.provider",
            "dev.troupe.cluster",
            "dev.troupe.actor.typed",
            "dev.troupe.micrometer",
            "dev.troupe.opentelemetry",
            "dev.troupe.testkit")) {
      assertTrue(
          packages.contains(expected),
          "no class of " + expected + " was imported (is its module's target/classes on the test class path?)");
    }
  }

  @Test
  void noRuntimePackageImportsAPackageThatImportsItBack() {
    slices()
        .matching("dev.troupe.(**)")
        .namingSlices("$1")
        .as("the runtime's packages")
        .should()
        .beFreeOfCycles()
        .because("each package of the engine is one concern, and dependencies between them point one way")
        .check(troupe.that(resideInAnyPackage(RUNTIME)));
  }

  @Test
  void theSpiImportsNothingOfTheEngine() {
    noClasses()
        .that()
        .resideInAPackage(SPI)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(INTERNAL)
        .because("the SPI holds interfaces and messages, never the engine's classes")
        .check(troupe);
  }

  @Test
  void outsideTheRuntimeOnlyTheObservabilityModulesUseItsInternals() {
    noClasses()
        .that(not(resideInAnyPackage(INTERNAL, "dev.troupe.micrometer..", "dev.troupe.opentelemetry..", "dev.troupe.testkit")))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(INTERNAL)
        .because("a transport or a cluster plugs in through dev.troupe.runtime.spi; the engine's packages"
            + " are exported to the observability modules only (and its TestActorRef hooks to the testkit)")
        .check(troupe);
  }

  @Test
  void theTestkitUsesOnlyItsHooks() {
    noClasses()
        .that()
        .resideInAPackage("dev.troupe.testkit")
        .should()
        .dependOnClassesThat(resideInAPackage(INTERNAL).and(not(resideInAPackage("dev.troupe.actor.internal.testing"))))
        .because("module-info exports only dev.troupe.actor.internal.testing to dev.troupe.testkit")
        .check(troupe);
  }

  @Test
  void theObservabilityModulesUseOnlyTheInternalsExportedToThem() {
    noClasses()
        .that()
        .resideInAPackage("dev.troupe.micrometer..")
        .should()
        .dependOnClassesThat(
            resideInAPackage(INTERNAL)
                .and(not(resideInAnyPackage("dev.troupe.actor.internal", "dev.troupe.actor.internal.telemetry"))))
        .because("module-info exports only dev.troupe.actor.internal and its telemetry to dev.troupe.micrometer")
        .check(troupe);
    noClasses()
        .that()
        .resideInAPackage("dev.troupe.opentelemetry..")
        .should()
        .dependOnClassesThat(
            resideInAPackage(INTERNAL)
                .and(not(resideInAnyPackage("dev.troupe.actor.internal", "dev.troupe.actor.internal.dispatch"))))
        .because("module-info exports only dev.troupe.actor.internal and its dispatch package to dev.troupe.opentelemetry")
        .check(troupe);
  }

  @Test
  void onlyRemotingAndTheClusterPlugIntoTheSpi() {
    noClasses()
        .that(not(resideInAnyPackage(INTERNAL, SPI, "dev.troupe.remote..", "dev.troupe.serialization..", "dev.troupe.cluster..")))
        .and(not(resideInAPackage("dev.troupe.opentelemetry..")))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SPI)
        .because("module-info exports dev.troupe.runtime.spi to dev.troupe.remoting, dev.troupe.cluster and dev.troupe.opentelemetry only")
        .check(troupe);
    noClasses()
        .that()
        .resideInAPackage("dev.troupe.opentelemetry..")
        .should()
        .dependOnClassesThat(resideInAPackage(SPI).and(not(simpleName("TraceCarrier"))))
        .because("the tracing module uses the runtime SPI for its trace carrier only")
        .check(troupe);
  }
}
