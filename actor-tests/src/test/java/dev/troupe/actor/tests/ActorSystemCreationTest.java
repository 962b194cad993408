package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/** ActorSystem.create: runtime discovery, configuration sources and precedence, names. */
class ActorSystemCreationTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  /** Systems a test created with ActorSystem.create itself (the subject of these tests). */
  private final List<ActorSystem> created = new ArrayList<>();

  private ActorSystem track(ActorSystem s) {
    created.add(s);
    return s;
  }

  @AfterEach
  void tearDown() {
    System.clearProperty("troupe-test.source");
    ConfigFactory.invalidateCaches();
    created.forEach(TestKit::shutdownActorSystem);
  }

  @Test
  void createFindsTheRuntimeThroughTheServiceLoader() {
    String name = RuntimeFixtures.uniqueName("discover");
    ActorSystem sys = track(ActorSystem.create(name));
    assertEquals(name, sys.name());
    assertEquals(name, sys.settings().name());
    assertEquals("troupe://" + name, sys.address().toString());
    assertTrue(sys.getClass().getName().startsWith("dev.troupe.actor.internal."), sys.getClass().getName());
    assertEquals("troupe://" + name + "/user/x", sys.child("x").toString());
  }

  @Test
  void createWithANameLoadsApplicationConfAndReferenceConf() {
    ActorSystem sys = track(ActorSystem.create(RuntimeFixtures.uniqueName("appconf")));
    assertEquals("application.conf", sys.settings().config().getString("troupe-test.source"));
    assertEquals(5, sys.settings().config().getInt("troupe.actor.default-dispatcher.throughput"), "reference.conf");
  }

  @Test
  void anExplicitConfigIsUsedWithReferenceConfAsFallback() {
    // ActorSystem.create itself: the testkit's createSystem layers application.conf under its HOCON
    ActorSystem sys = track(ActorSystem.create(RuntimeFixtures.uniqueName("explicit"), ConfigFactory.parseString(
        "troupe-test.source = explicit\ntroupe.actor.default-dispatcher.throughput = 9")));
    assertEquals("explicit", sys.settings().config().getString("troupe-test.source"));
    assertEquals(9, sys.settings().config().getInt("troupe.actor.default-dispatcher.throughput"));
    assertEquals("10ms", sys.settings().config().getString("troupe.scheduler.tick-duration"), "reference.conf fallback");
    assertFalse(sys.settings().config().hasPath("troupe-test.only-in-application-conf"),
        "an explicit config replaces application.conf");
  }

  @Test
  void systemPropertiesOverrideBothApplicationConfAndAnExplicitConfig() {
    System.setProperty("troupe-test.source", "system-property");
    ConfigFactory.invalidateCaches();
    ActorSystem a = track(ActorSystem.create(RuntimeFixtures.uniqueName("dprop")));
    ActorSystem b = troupe.createSystem("troupe-test.source = explicit");
    assertEquals("system-property", a.settings().config().getString("troupe-test.source"));
    assertEquals("system-property", b.settings().config().getString("troupe-test.source"));
  }

  @Test
  void aSystemPropertyCanTuneTheRuntime() {
    System.setProperty("troupe-test.source", "ignored");
    ActorSystem sys;
    try {
      System.setProperty("troupe.actor.default-dispatcher.throughput", "1");
      ConfigFactory.invalidateCaches();
      sys = troupe.createSystem("");
    } finally {
      System.clearProperty("troupe.actor.default-dispatcher.throughput");
      ConfigFactory.invalidateCaches();
    }
    assertEquals(1, sys.settings().config().getInt("troupe.actor.default-dispatcher.throughput"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "a/b", "-leading", "näme", "sys@host", "a.b"})
  void anInvalidSystemNameIsAnIllegalArgumentException(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> track(ActorSystem.create(name)));
    assertTrue(e.getMessage().contains(name), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> track(ActorSystem.create(name, ConfigFactory.empty())));
  }

  @Test
  void aNullConfigIsRejectedAtTheCall() {
    assertThrows(NullPointerException.class, () -> track(ActorSystem.create("nullconfig", null)));
  }

  @Test
  void anUnsupportedProviderIsAConfigurationExceptionNamingTheKey() {
    ConfigurationException e = assertThrows(ConfigurationException.class,
        () -> troupe.createSystem("troupe.actor.provider = carrier-pigeon"));
    assertTrue(e.getMessage().contains("troupe.actor.provider"), e.getMessage());
  }

  @Test
  void theSystemLogAndUptimeAreAvailable(ActorSystem sys) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try {
      sys.log().info("hello from {}", sys.name());
      sys.log().debug("debug {}", 1);
    } catch (Throwable t) {
      failure.set(t);
    }
    assertEquals(null, failure.get());
    assertFalse(sys.uptime().isNegative());
  }

  /** The WARN lines the system's logger wrote while a system named {@code name} was created from {@code hocon}. */
  private List<String> startWarnings(String name, String hocon) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.troupe.actor." + name);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      track(ActorSystem.create(name, ConfigFactory.parseString(hocon)));
    } finally {
      logger.detachAppender(appender);
    }
    List<String> warnings = new ArrayList<>();
    for (ILoggingEvent e : appender.list) {
      if (e.getLevel() == Level.WARN) {
        warnings.add(e.getFormattedMessage());
      }
    }
    return warnings;
  }

  @Test
  void aSystemStartsDespiteAMisspelledKeyAndWarnsOnceNamingTheClosestKey() {
    String typo = "troupe.actor.default-dispatcher.throughtput = 10";
    List<String> warnings = startWarnings(RuntimeFixtures.uniqueName("typo"), typo);
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("'troupe.actor.default-dispatcher.throughtput'"), warnings.get(0));
    assertTrue(warnings.get(0).contains("'troupe.actor.default-dispatcher.throughput'"), warnings.get(0));
    String off = typo + "\ntroupe.log-config-warnings = off";
    assertEquals(List.of(), startWarnings(RuntimeFixtures.uniqueName("typo-quiet"), off));
  }
}
