package dev.troupe.remote.internal;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direction of the dependencies between remoting's packages, read from the compiled main
 * classes (tests may reach anywhere): from the bottom, {@code config}, then {@code transport}
 * (which knows the node above only through its own callback interfaces), {@code association},
 * then {@code watch} and {@code deploy} beside each other ({@code deploy} may use {@code watch}),
 * and {@code provider} on top; the public SPI ({@code dev.troupe.remote.spi}) names no internal
 * class; and no package depends on one that depends on it back.
 */
class RemotingLayersTest {
  private static final String INTERNAL = "dev.troupe.remote.internal.";
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.troupe.remote", "dev.troupe.serialization");
  }

  private static String[] internal(String... packages) {
    String[] out = new String[packages.length];
    for (int i = 0; i < packages.length; i++) {
      out[i] = INTERNAL + packages[i] + "..";
    }
    return out;
  }

  @Test
  void theSettingsDependOnNoOtherPartOfRemoting() {
    noClasses()
        .that().resideInAPackage(INTERNAL + "config..")
        .should().dependOnClassesThat().resideInAnyPackage(internal("transport", "association", "watch", "deploy", "provider"))
        .because("the settings are the bottom of remoting's layers")
        .check(classes);
  }

  @Test
  void theTransportKnowsNothingAboveIt() {
    noClasses()
        .that().resideInAPackage(INTERNAL + "transport..")
        .should().dependOnClassesThat().resideInAnyPackage(internal("association", "watch", "deploy", "provider"))
        .orShould().dependOnClassesThat().resideInAPackage("dev.troupe.remote.spi..")
        .because("the transport knows the node above it only through InboundHost, InboundPeer and OutboundListener")
        .check(classes);
  }

  @Test
  void theAssociationsKnowNeitherDeathWatchNorDeploymentNorTheProvider() {
    noClasses()
        .that().resideInAPackage(INTERNAL + "association..")
        .should().dependOnClassesThat().resideInAnyPackage(internal("watch", "deploy", "provider"))
        .because("death watch, deployment and the provider sit above the associations")
        .check(classes);
  }

  @Test
  void deathWatchAndDeploymentDoNotKnowTheProvider() {
    noClasses()
        .that().resideInAnyPackage(internal("watch", "deploy"))
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + "provider..")
        .because("the provider is the top of remoting's layers; deployment knows it only as DeploymentHost")
        .check(classes);
    noClasses()
        .that().resideInAPackage(INTERNAL + "watch..")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + "deploy..")
        .because("death watch across nodes sits beside deployment, which uses it")
        .check(classes);
  }

  @Test
  void theSpiNamesNoInternalClass() {
    noClasses()
        .that().resideInAPackage("dev.troupe.remote.spi..")
        .should().dependOnClassesThat().resideInAPackage("dev.troupe.remote.internal..")
        .because("the SPI is what the cluster module may see; it reaches the provider through ServiceLoader")
        .check(classes);
  }

  /**
   * Between remoting's packages (its events, the SPI, the internal layers). The serialization
   * packages, a public facade and its internals that name each other, are not part of this rule.
   */
  @Test
  void noPackageDependsOnOneThatDependsOnItBack() {
    slices().matching("dev.troupe.(**)").should().beFreeOfCycles().check(classes.that(resideInAPackage("dev.troupe.remote..")));
  }
}
