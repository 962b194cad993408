package dev.troupe.cluster.internal.jgroups;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ConfigurationException;
import dev.troupe.cluster.UniqueAddress;
import dev.troupe.cluster.internal.Contexts;
import dev.troupe.cluster.internal.inmemory.InMemoryProviderFactory;
import dev.troupe.cluster.spi.MembershipContext;
import dev.troupe.cluster.spi.MembershipProviderFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code troupe.cluster.jgroups.*}: defaults, the failure detector's mapping, and bad values named by key. */
class JGroupsSettingsTest {
  private static final UniqueAddress SELF = Contexts.node("settings", 2552, 1);

  private static MembershipContext context(String hocon, Duration heartbeat, Duration pause) {
    return new MembershipContext(SELF, Set.of(), "settings", heartbeat, pause, Contexts.clusterConfig(hocon));
  }

  @Test
  void defaultsFollowTheReferenceAndTheRemotingHost() throws Exception {
    JGroupsSettings s = JGroupsSettings.from(context("", Duration.ofSeconds(1), Duration.ofSeconds(5)));
    assertEquals(InetAddress.getByName("127.0.0.1"), s.bindAddress(), "\"\" = the node's remoting host");
    assertEquals(0, s.bindPort());
    assertEquals(Duration.ofSeconds(2), s.joinTimeout());
    assertEquals(Duration.ofSeconds(1), s.leaveTimeout());
    assertEquals(Duration.ofSeconds(1), s.heartbeatInterval());
    assertEquals(Duration.ofSeconds(1), s.verifyTimeout(), "a second look of one interval");
    assertEquals(Duration.ofSeconds(4), s.silenceTimeout(), "silence + second look = the pause");
  }

  @Test
  void theFailureDetectorsTimingsAddUpToThePause() {
    JGroupsSettings fast = JGroupsSettings.from(context("", Duration.ofMillis(200), Duration.ofSeconds(1)));
    assertEquals(Duration.ofMillis(200), fast.verifyTimeout());
    assertEquals(Duration.ofMillis(800), fast.silenceTimeout());
    // a pause of under three intervals: the second look shrinks, silence stays above two intervals
    JGroupsSettings tight = JGroupsSettings.from(context("", Duration.ofSeconds(1), Duration.ofMillis(1500)));
    assertEquals(Duration.ofMillis(500), tight.verifyTimeout());
    assertEquals(Duration.ofSeconds(2), tight.silenceTimeout());
  }

  @Test
  void explicitValuesAreRead() {
    JGroupsSettings s =
        JGroupsSettings.from(
            context(
                "troupe.cluster.jgroups { bind-hostname = \"127.0.0.1\", bind-port = 7800, join-timeout = 3s, leave-timeout = 500ms }",
                Duration.ofSeconds(1),
                Duration.ofSeconds(5)));
    assertEquals(7800, s.bindPort());
    assertEquals(Duration.ofSeconds(3), s.joinTimeout());
    assertEquals(Duration.ofMillis(500), s.leaveTimeout());
  }

  @Test
  void malformedValuesAreNamedByTheirFullKey() {
    Map<String, String> cases =
        Map.of(
            "troupe.cluster.jgroups.bind-port = x", "troupe.cluster.jgroups.bind-port",
            "troupe.cluster.jgroups.bind-port = 70000", "troupe.cluster.jgroups.bind-port",
            "troupe.cluster.jgroups.bind-hostname = \"0.0.0.0\"", "troupe.cluster.jgroups.bind-hostname",
            "troupe.cluster.jgroups.bind-hostname = \"no-such-host.invalid\"", "troupe.cluster.jgroups.bind-hostname",
            "troupe.cluster.jgroups.join-timeout = soon", "troupe.cluster.jgroups.join-timeout",
            "troupe.cluster.jgroups.join-timeout = 0s", "troupe.cluster.jgroups.join-timeout",
            "troupe.cluster.jgroups.leave-timeout = 1h", "troupe.cluster.jgroups.leave-timeout",
            "troupe.cluster.jgroups = 3", "troupe.cluster.jgroups",
            "troupe.cluster.jgroups.auth-secret = \"short\"", "troupe.cluster.jgroups.auth-secret",
            "troupe.cluster.jgroups.auth-secret = { a = 1 }", "troupe.cluster.jgroups.auth-secret");
    cases.forEach(
        (hocon, key) -> {
          ConfigurationException e =
              assertThrows(
                  ConfigurationException.class,
                  () -> new JGroupsProviderFactory().create(context(hocon, Duration.ofSeconds(1), Duration.ofSeconds(5))),
                  hocon);
          assertTrue(e.getMessage().contains("'" + key + "'"), hocon + " -> " + e.getMessage());
        });
  }

  @Test
  void theSecretIsReadAndNeverShown() {
    String secret = "sixteen-chars-or-more";
    JGroupsSettings s =
        JGroupsSettings.from(
            context("troupe.cluster.jgroups.auth-secret = \"" + secret + "\"", Duration.ofSeconds(1), Duration.ofSeconds(5)));
    assertEquals(secret, s.authSecret());
    assertTrue(s.authenticated());
    assertFalse(s.toString().contains(secret), s.toString());
    assertFalse(JGroupsSettings.from(context("", Duration.ofSeconds(1), Duration.ofSeconds(5))).authenticated(), "off by default");
    ConfigurationException e =
        assertThrows(
            ConfigurationException.class,
            () -> JGroupsSettings.from(context("troupe.cluster.jgroups.auth-secret = \"tooshort\"", Duration.ofSeconds(1), Duration.ofSeconds(5))));
    assertFalse(e.getMessage().contains("tooshort"), "the message never shows the value: " + e.getMessage());
  }

  @Test
  void anUnauthenticatedEngineOnANonLoopbackAddressWarnsOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(JGroupsProviderFactory.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      String exposed = "troupe.cluster.jgroups.bind-hostname = \"10.1.2.3\"";
      new JGroupsProviderFactory().create(context(exposed, Duration.ofSeconds(1), Duration.ofSeconds(5))).close();
      new JGroupsProviderFactory().create(context("", Duration.ofSeconds(1), Duration.ofSeconds(5))).close();
      new JGroupsProviderFactory()
          .create(context(exposed + "\ntroupe.cluster.jgroups.auth-secret = \"sixteen-chars-or-more\"", Duration.ofSeconds(1), Duration.ofSeconds(5)))
          .close();
      List<ILoggingEvent> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
      assertEquals(1, warnings.size(), "only the engine on 10.1.2.3 without a secret warns: " + warnings);
      assertTrue(warnings.get(0).getFormattedMessage().contains("troupe.cluster.jgroups.auth-secret"), warnings.get(0).getFormattedMessage());
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void failureDetectorTimingsTheStackCannotRunAreNamed() {
    ConfigurationException zero =
        assertThrows(ConfigurationException.class, () -> JGroupsSettings.from(context("", Duration.ZERO, Duration.ofSeconds(5))));
    assertTrue(zero.getMessage().contains("'troupe.cluster.failure-detector.heartbeat-interval'"), zero.getMessage());
    ConfigurationException pause =
        assertThrows(
            ConfigurationException.class, () -> JGroupsSettings.from(context("", Duration.ofSeconds(1), Duration.ofSeconds(1))));
    assertTrue(pause.getMessage().contains("'troupe.cluster.failure-detector.acceptable-heartbeat-pause'"), pause.getMessage());
  }

  @Test
  void rolesThatDoNotFitTheIdentityAreNamed() {
    MembershipContext c =
        new MembershipContext(
            SELF, Set.of("x".repeat(3000)), "settings", Duration.ofSeconds(1), Duration.ofSeconds(5), Contexts.clusterConfig(""));
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> new JGroupsProviderFactory().create(c));
    assertTrue(e.getMessage().contains("'troupe.cluster.roles'"), e.getMessage());
  }

  @Test
  void bothEnginesAreFoundByName() {
    Map<String, Class<?>> byName =
        ServiceLoader.load(MembershipProviderFactory.class).stream()
            .collect(Collectors.toMap(p -> p.get().name(), ServiceLoader.Provider::type));
    assertEquals(JGroupsProviderFactory.class, byName.get("jgroups"));
    assertEquals(InMemoryProviderFactory.class, byName.get("in-memory"));
  }
}
