package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Deploy;
import dev.troupe.actor.Props;
import dev.troupe.runtime.spi.ActorRefProviderFactory;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import dev.troupe.testkit.TestKit;
import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code troupe.actor.provider} picks the ref provider; a local provider refuses remote deployment
 * loudly (by props or by configuration) instead of creating the actor locally.
 */
class ProviderSelectionTest {
  private static final Address ELSEWHERE = Address.parse("troupe://other@127.0.0.1:2553");

  @RegisterExtension
  static final ActorSystemExtension troupe =
      ActorSystemExtension.perClass(
          """
          troupe.actor.deployment {
            /configured { remote = "troupe://other@127.0.0.1:2553" }
            /parent/configured-child { remote = "troupe://other@127.0.0.1:2553" }
          }
          """);

  /** Does nothing. */
  static final class Idle extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder().build();
    }
  }

  private static void assertNeedsRemoteProvider(ConfigurationException e) {
    assertTrue(e.getMessage().contains("troupe.actor.provider = remote"), e.getMessage());
    assertTrue(e.getMessage().contains(ELSEWHERE.toString()), "names the target: " + e.getMessage());
  }

  @Test
  void deployRemoteInPropsFailsActorOfOnALocalSystemAndLeavesTheNameFree(ActorSystem system) {
    Props remote = Props.create(Idle.class).withDeploy(Deploy.remote(ELSEWHERE));

    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> system.actorOf(remote, "by-props"));

    assertNeedsRemoteProvider(e);
    ActorRef local = system.actorOf(Props.create(Idle.class), "by-props"); // the name was not taken
    assertEquals("by-props", local.path().name());
  }

  @Test
  void aRemoteKeyInTheDeploymentSectionFailsActorOfOnALocalSystem(ActorSystem system) {
    ConfigurationException e =
        assertThrows(ConfigurationException.class, () -> system.actorOf(Props.create(Idle.class), "configured"));

    assertNeedsRemoteProvider(e);
    assertTrue(e.getMessage().contains("/user/configured"), "names the actor: " + e.getMessage());
  }

  @Test
  void aConfiguredRemoteDeploymentOfANestedActorFailsInItsParent(ActorSystem system) {
    ActorRef parent = system.actorOf(TestActors.childMakerProps(Props.create(Idle.class)), "parent");

    Throwable outcome = assertThrows(CompletionException.class,
        () -> Patterns.ask(parent, "configured-child", Duration.ofSeconds(5)).toCompletableFuture().join()).getCause();

    assertTrue(outcome instanceof ConfigurationException, "expected a refusal, got " + outcome);
    assertNeedsRemoteProvider((ConfigurationException) outcome);
    Object sibling = Patterns.ask(parent, "unconfigured", Duration.ofSeconds(5)).toCompletableFuture().join();
    assertTrue(sibling instanceof ActorRef, "other children are created as usual: " + sibling);
  }

  @Test
  void providerRemoteWithoutTheRemotingModuleFailsCreateNamingKeyAndArtifact() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> withoutRemoting(() -> ActorSystem.create("noremoting", ConfigFactory.parseString("troupe.actor.provider = remote"))));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    assertTrue(e.getMessage().contains("dev.troupe:troupe-remoting"), e.getMessage());
  }

  @Test
  void providerClusterWithoutTheClusterModuleFailsCreateNamingKeyAndArtifact() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> withoutRemoting(() -> ActorSystem.create("nocluster", ConfigFactory.parseString("troupe.actor.provider = cluster"))));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    assertTrue(e.getMessage().contains("dev.troupe:troupe-cluster"), e.getMessage());
  }

  @Test
  void aProviderClassThatDoesNotExistFailsCreateNamingTheKey() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () ->
                ActorSystem.create(
                    "noclass", ConfigFactory.parseString("troupe.actor.provider = com.example.NoSuchProvider")));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    assertTrue(e.getMessage().contains("com.example.NoSuchProvider"), e.getMessage());
  }

  @Test
  void aClassThatIsNotAProviderFactoryFailsCreateNamingTheKey() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> ActorSystem.create("notfactory", ConfigFactory.parseString("troupe.actor.provider = java.lang.String")));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
    assertTrue(e.getMessage().contains("does not implement"), e.getMessage());
  }

  @Test
  void aMalformedRemoteAddressInADeploymentSectionFailsCreateNamingTheKey() {
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () ->
                ActorSystem.create(
                    "badremote",
                    ConfigFactory.parseString("troupe.actor.deployment { /w { remote = \"elsewhere:2553\" } }")));
    assertTrue(e.getMessage().contains("troupe.actor.deployment.\"/w\".remote"), e.getMessage());
  }

  @Test
  void aFailedCreateLeavesNoThreadOfTheSystemBehind() {
    assertThrows(
        ConfigurationException.class,
        () -> withoutRemoting(() -> ActorSystem.create("leaky", ConfigFactory.parseString("troupe.actor.provider = remote"))));
    new TestKit(troupe.system())
        .awaitCond(
            Duration.ofSeconds(10),
            Duration.ofMillis(10),
            "threads of system 'leaky' gone",
            () -> Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("leaky-")));
  }

  /**
   * Runs {@code create} as if dev.troupe:troupe-remoting were not on the class path (this module's
   * tests have it): the runtime looks its provider factories up through the context class loader,
   * and this one hides the remoting module's service entry.
   */
  private static ActorSystem withoutRemoting(Supplier<ActorSystem> create) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(
        new ClassLoader(previous) {
          @Override
          public Enumeration<URL> getResources(String name) throws IOException {
            return name.equals("META-INF/services/" + ActorRefProviderFactory.class.getName())
                ? Collections.emptyEnumeration()
                : super.getResources(name);
          }
        });
    try {
      return create.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}
