package dev.troupe.actor.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Opens;
import java.lang.module.ModuleDescriptor.Provides;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the published modules' descriptors (module-info.java): their names, what each exports to
 * everyone, that the runtime exports its SPI only to remoting and the cluster and the few internals
 * the observability modules read only to them, and
 * the ActorSystemProvider service link between the API and the runtime. Then resolves the
 * descriptors on a module path of their own and starts a system there, as a modular application
 * would, and serializes messages there with the remoting module.
 *
 * <p>Each module is read where the build put it (the code source of one of its classes: {@code
 * target/classes} in the {@code test} phase, the jar in {@code verify}).
 *
 * <p>One file past 700 lines: every published module's descriptor is pinned here, one test each,
 * beside the others, so that a change to what one module exports or opens is read against all of
 * them.
 */
class ModuleDescriptorsTest {
  private static final String API = "dev.troupe.actor";
  private static final String EXECUTORS = "dev.troupe.executors";
  private static final String RUNTIME = "dev.troupe.runtime";
  private static final String TESTKIT = "dev.troupe.testkit";
  private static final String REMOTING = "dev.troupe.remoting";
  private static final String TYPED = "dev.troupe.actor.typed";
  private static final String TESTKIT_TYPED = "dev.troupe.testkit.typed";
  private static final String MICROMETER = "dev.troupe.micrometer";
  private static final String OPENTELEMETRY = "dev.troupe.opentelemetry";

  private static final String CLUSTER = "dev.troupe.cluster";
  private static final String RUNTIME_SPI = "dev.troupe.runtime.spi";

  private static final String PROVIDER_SPI = "dev.troupe.actor.spi.ActorSystemProvider";
  private static final String REF_VIEW_SPI = "dev.troupe.actor.spi.ClassicRefView";

  @Test
  void theApiModuleExportsExactlyItsApiAndSpiPackages() {
    ModuleDescriptor api = descriptorOf(dev.troupe.actor.ActorSystem.class, API);

    assertEquals(
        Set.of(
            "dev.troupe.actor", "dev.troupe.actor.spi", "dev.troupe.pattern", "dev.troupe.routing"),
        unqualifiedExports(api),
        "packages dev.troupe.actor exports to everyone");
    assertEquals(Map.of(), qualifiedExports(api), "dev.troupe.actor has no qualified exports");
    assertNothingOpened(api);
    assertRequiresTransitive(api, "typesafe.config");
    assertEquals(
        Set.of(PROVIDER_SPI),
        api.uses(),
        "dev.troupe.actor must declare 'uses " + PROVIDER_SPI + "': ActorSystem.create finds the"
            + " runtime with ServiceLoader, which fails in a named module without it");
  }

  @Test
  void theExecutorsModuleExportsOnlyItsOwnPackage() {
    ModuleDescriptor executors =
        descriptorOf(dev.troupe.executors.AffinityPool.class, EXECUTORS);

    assertEquals(
        Set.of("dev.troupe.executors"),
        unqualifiedExports(executors),
        "packages dev.troupe.executors exports to everyone");
    assertEquals(
        Map.of(), qualifiedExports(executors), "dev.troupe.executors has no qualified exports");
    assertNothingOpened(executors);
  }

  @Test
  void theRuntimeExportsDispatchToEveryoneItsSpiToRemotingAndClusterAndNoInternalsToThem() {
    ModuleDescriptor runtime = descriptorOf(dev.troupe.dispatch.UnboundedMailbox.class, RUNTIME);

    assertEquals(
        Set.of("dev.troupe.dispatch"),
        unqualifiedExports(runtime),
        "dev.troupe.runtime may export only dev.troupe.dispatch to everyone");
    assertEquals(
        Map.of(
            RUNTIME_SPI, Set.of(REMOTING, CLUSTER, OPENTELEMETRY),
            "dev.troupe.actor.internal", Set.of(MICROMETER, OPENTELEMETRY),
            "dev.troupe.actor.internal.dispatch", Set.of(OPENTELEMETRY),
            "dev.troupe.actor.internal.telemetry", Set.of(MICROMETER),
            "dev.troupe.actor.internal.testing", Set.of(TESTKIT)),
        qualifiedExports(runtime),
        "the runtime's qualified exports: its SPI to the modules that plug in (remoting, cluster,"
            + " and tracing's carrier of trace context across nodes), the few internals the"
            + " observability modules read to them, and to the testkit only its TestActorRef hooks");
    Set<String> unknown = new TreeSet<>(runtime.packages());
    unknown.removeIf(
        p -> p.equals("dev.troupe.dispatch") || p.equals(RUNTIME_SPI) || p.startsWith("dev.troupe.actor.internal"));
    assertEquals(Set.of(), unknown, "runtime packages that are neither API, SPI nor internal");
    assertOpens(
        runtime,
        Map.of("dev.troupe.actor.internal", Set.of(API)),
        "the runtime opens only the guardians' package, and only to the API module that"
            + " instantiates actors");
    assertRequiresTransitive(runtime, API);
  }

  @Test
  void theRuntimeProvidesTheActorSystemProviderThatTheApiUses() {
    ModuleDescriptor runtime = descriptorOf(dev.troupe.dispatch.UnboundedMailbox.class, RUNTIME);

    Map<String, List<String>> provides =
        runtime.provides().stream()
            .collect(Collectors.toMap(Provides::service, Provides::providers));
    assertEquals(
        Map.of(PROVIDER_SPI, List.of("dev.troupe.actor.internal.TroupeRuntimeProvider")),
        provides,
        "services dev.troupe.runtime provides");
    assertEquals(
        Set.of("dev.troupe.runtime.spi.ActorRefProviderFactory"),
        runtime.uses(),
        "services dev.troupe.runtime uses (troupe.actor.provider = remote finds its factory)");
  }

  @Test
  void theTestkitExportsOnlyItsOwnPackage() {
    ModuleDescriptor testkit = descriptorOf(dev.troupe.testkit.TestKit.class, TESTKIT);

    assertEquals(
        Set.of("dev.troupe.testkit"),
        unqualifiedExports(testkit),
        "packages dev.troupe.testkit exports to everyone");
    assertEquals(
        Map.of(), qualifiedExports(testkit), "dev.troupe.testkit has no qualified exports");
    assertOpens(
        testkit,
        Map.of("dev.troupe.testkit", Set.of(API)),
        "the testkit opens its package (the test actor) only to the API module that instantiates"
            + " actors");
    assertRequiresTransitive(testkit, API);
    assertRequiresTransitive(testkit, "org.junit.jupiter.api");
  }

  @Test
  void theTypedModuleExportsItsFivePackagesAndItsInternalsOnlyToTheTypedTestkitAndCluster() {
    ModuleDescriptor typed = descriptorOf(dev.troupe.actor.typed.Behavior.class, TYPED);

    assertEquals(
        Set.of("dev.troupe.actor.typed", "dev.troupe.actor.typed.javadsl", "dev.troupe.actor.typed.receptionist",
            "dev.troupe.actor.typed.pubsub", "dev.troupe.actor.typed.eventstream", "dev.troupe.actor.typed.delivery"),
        unqualifiedExports(typed),
        "packages dev.troupe.actor.typed exports to everyone");
    assertEquals(
        Map.of("dev.troupe.actor.typed.internal", Set.of(TESTKIT_TYPED, "dev.troupe.cluster.typed"),
            "dev.troupe.actor.typed.delivery.internal", Set.of("dev.troupe.cluster.typed")),
        qualifiedExports(typed),
        "the typed engine is exported only to the typed testkit (its BehaviorTestKit runs the interpreter)"
            + " and the typed cluster (it watches the actor behind a subscriber's ref); reliable delivery's"
            + " internal wire messages only to the typed cluster, whose serializer writes them");
    assertOpens(
        typed,
        Map.of("dev.troupe.actor.typed.internal", Set.of(API)),
        "the typed module opens only the package of the actor that runs behaviours, to the API module"
            + " that instantiates actors");
    assertRequiresTransitive(typed, API);
    assertRequiresTransitive(typed, "org.slf4j");
    assertEquals(
        Set.of("dev.troupe.actor.typed.receptionist.ReceptionistFactory", "dev.troupe.actor.spi.ServiceDirectory"),
        typed.uses(),
        "the seams of the receptionist: a module may replace it, and the cluster's directory makes the built-in"
            + " one cluster-wide");
    assertEquals(
        Map.of(REF_VIEW_SPI, List.of("dev.troupe.actor.typed.internal.TypedRefView")),
        typed.provides().stream().collect(Collectors.toMap(Provides::service, Provides::providers)),
        "services dev.troupe.actor.typed provides (remoting sends a typed ref as its classic ref's"
            + " path through it; on the module path META-INF/services is ignored)");
  }

  @Test
  void theTypedClusterExportsMembershipShardingAndSingletonsAndItsInternalsOnlyToRemoting() {
    ModuleDescriptor typedCluster =
        descriptorOf(dev.troupe.cluster.sharding.typed.ClusterSharding.class, "dev.troupe.cluster.typed");

    assertEquals(
        Set.of("dev.troupe.cluster.typed", "dev.troupe.cluster.sharding.typed", "dev.troupe.cluster.singleton.typed"),
        unqualifiedExports(typedCluster),
        "packages dev.troupe.cluster.typed exports to everyone");
    assertEquals(
        Map.of("dev.troupe.cluster.sharding.typed.internal", Set.of(REMOTING),
            "dev.troupe.cluster.typed.internal", Set.of(REMOTING)),
        qualifiedExports(typedCluster),
        "its internals only to remoting, whose registry instantiates the envelope's and reliable delivery's"
            + " serializers");
    assertNothingOpened(typedCluster);
    assertRequiresTransitive(typedCluster, CLUSTER);
    assertRequiresTransitive(typedCluster, TYPED);
  }

  @Test
  void theTypedTestkitExportsOnlyItsOwnPackage() {
    ModuleDescriptor kit = descriptorOf(dev.troupe.testkit.typed.ActorTestKit.class, TESTKIT_TYPED);

    assertEquals(Set.of("dev.troupe.testkit.typed"), unqualifiedExports(kit), "packages dev.troupe.testkit.typed exports");
    assertEquals(Map.of(), qualifiedExports(kit), "dev.troupe.testkit.typed has no qualified exports");
    assertNothingOpened(kit);
    assertRequiresTransitive(kit, TYPED);
    assertRequiresTransitive(kit, "org.junit.jupiter.api");
  }

  /**
   * A typed system starts on the module path (the API module instantiates the actor that runs the
   * guardian's behaviour, in the typed module's opened internal package) and answers an ask.
   */
  @Test
  void aTypedSystemStartsAndAnswersAnAskOnTheModulePath() throws Exception {
    ModuleLayer layer = moduleLayer(Set.of(API, TYPED), dev.troupe.actor.typed.Behavior.class);
    ClassLoader loader = layer.findLoader(TYPED);
    Class<?> behaviors = Class.forName("dev.troupe.actor.typed.javadsl.Behaviors", true, loader);
    Class<?> behavior = Class.forName("dev.troupe.actor.typed.Behavior", true, loader);
    Class<?> typedSystem = Class.forName("dev.troupe.actor.typed.ActorSystem", true, loader);
    Class<?> typedRef = Class.forName("dev.troupe.actor.typed.ActorRef", true, loader);
    Class<?> scheduler = Class.forName("dev.troupe.actor.Scheduler", true, loader);
    assertEquals(TYPED, typedSystem.getModule().getName(), "module of the typed ActorSystem in the layer");
    // the guardian answers every message (an ActorRef<String>) with "pong"
    java.util.function.Function<Object, Object> reply =
        m -> {
          try {
            typedRef.getMethod("tell", Object.class).invoke(m, "pong");
            return behaviors.getMethod("same").invoke(null);
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        };
    Object guardian = behaviors.getMethod("receiveMessage", java.util.function.Function.class).invoke(null, reply);
    Object system =
        withContextLoader(loader, () -> typedSystem.getMethod("create", behavior, String.class).invoke(null, guardian, "modular-typed"));
    try {
      java.util.function.Function<Object, Object> request = replyTo -> replyTo;
      CompletionStage<?> answer =
          (CompletionStage<?>)
              Class.forName("dev.troupe.actor.typed.javadsl.AskPattern", true, loader)
                  .getMethod("ask", typedRef, java.util.function.Function.class, Duration.class, scheduler)
                  .invoke(null, system, request, Duration.ofSeconds(5), typedSystem.getMethod("scheduler").invoke(system));
      assertEquals("pong", answer.toCompletableFuture().get(5, TimeUnit.SECONDS), "the guardian's answer");
    } finally {
      ((CompletionStage<?>) typedSystem.getMethod("terminate").invoke(system)).toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void theRemotingModuleProvidesTheRemoteRefProviderFactoryThatTheRuntimeUses() {
    ModuleDescriptor remoting =
        descriptorOf(dev.troupe.serialization.Serialization.class, REMOTING);

    Map<String, List<String>> provides =
        remoting.provides().stream()
            .collect(Collectors.toMap(Provides::service, Provides::providers));
    assertEquals(
        Map.of(
            "dev.troupe.runtime.spi.ActorRefProviderFactory",
            List.of("dev.troupe.remote.internal.provider.RemoteProviderFactory")),
        provides,
        "services dev.troupe.remoting provides (troupe.actor.provider = remote finds its factory"
            + " through 'provides' on the module path, where META-INF/services is ignored)");
    assertEquals(
        Set.of(REF_VIEW_SPI, "dev.troupe.runtime.spi.ActorRefProviderFactory"),
        remoting.uses(),
        "services dev.troupe.remoting uses (the kinds of reference, e.g. typed refs, that its"
            + " serializers send as classic refs' paths; its own provider factory, which the remoting SPI's"
            + " RemoteProviders finds; ServiceLoader fails in a named module without it)");
  }

  @Test
  void theRemotingModuleExportsItsTwoPublicPackagesAndReadsTheRuntimesSpi() {
    ModuleDescriptor remoting =
        descriptorOf(dev.troupe.serialization.Serialization.class, REMOTING);

    assertEquals(
        Set.of("dev.troupe.remote", "dev.troupe.serialization"),
        unqualifiedExports(remoting),
        "packages dev.troupe.remoting exports to everyone (its internal packages stay unexported)");
    assertEquals(
        Map.of("dev.troupe.remote.spi", Set.of("dev.troupe.cluster", "dev.troupe.micrometer")),
        qualifiedExports(remoting),
        "dev.troupe.remoting exports its SPI to the cluster module (a provider built on the remote one)"
            + " and the micrometer module (its metrics view) only");
    assertNothingOpened(remoting);
    assertRequiresTransitive(remoting, API);
    assertRequiresTransitive(remoting, "com.fasterxml.jackson.databind"); // JacksonMapperCustomizer's MapperBuilder
    Set<String> required =
        remoting.requires().stream().map(Requires::name).collect(Collectors.toCollection(TreeSet::new));
    assertTrue(
        required.containsAll(
            Set.of(
                RUNTIME,
                "com.fasterxml.jackson.databind",
                "com.fasterxml.jackson.dataformat.cbor",
                "com.fasterxml.jackson.datatype.jsr310",
                "com.fasterxml.jackson.datatype.jdk8",
                "com.fasterxml.jackson.module.paramnames",
                "org.slf4j",
                "io.netty.transport",
                "io.netty.codec",
                "io.netty.handler")),
        "dev.troupe.remoting requires the runtime (for its SPI), Jackson, Netty and slf4j: " + required);
  }

  @Test
  void theMicrometerModuleExportsOnlyItsPackageAndNeedsRemotingOnlyIfPresent() {
    ModuleDescriptor micrometer =
        descriptorOf(dev.troupe.micrometer.TroupeMetrics.class, MICROMETER);

    assertEquals(
        Set.of("dev.troupe.micrometer"),
        unqualifiedExports(micrometer),
        "packages dev.troupe.micrometer exports to everyone");
    assertEquals(
        Map.of(), qualifiedExports(micrometer), "dev.troupe.micrometer has no qualified exports");
    assertNothingOpened(micrometer);
    assertRequiresTransitive(micrometer, "micrometer.core");
    Requires remoting =
        micrometer.requires().stream()
            .filter(r -> r.name().equals(REMOTING))
            .findFirst()
            .orElse(null);
    assertNotNull(remoting, "dev.troupe.micrometer reads remoting's events: 'requires static'");
    assertTrue(
        remoting.modifiers().contains(Requires.Modifier.STATIC),
        "dev.troupe.micrometer must work without remoting: 'requires static dev.troupe.remoting'");
  }

  @Test
  void theOpenTelemetryModuleExportsOnlyItsPackageAndNeedsOnlyTheApi() {
    ModuleDescriptor otel =
        descriptorOf(dev.troupe.opentelemetry.TroupeTracing.class, OPENTELEMETRY);

    assertEquals(
        Set.of("dev.troupe.opentelemetry"),
        unqualifiedExports(otel),
        "packages dev.troupe.opentelemetry exports to everyone");
    assertEquals(
        Map.of(), qualifiedExports(otel), "dev.troupe.opentelemetry has no qualified exports");
    assertNothingOpened(otel);
    assertRequiresTransitive(otel, "io.opentelemetry.api");
    Set<String> required =
        otel.requires().stream().map(Requires::name).collect(Collectors.toCollection(TreeSet::new));
    assertFalse(
        required.stream().anyMatch(r -> r.startsWith("io.opentelemetry.sdk")),
        "dev.troupe.opentelemetry needs the OpenTelemetry API only (the SDK is the user's): " + required);
  }

  /**
   * The observability modules resolve on a module path with Micrometer's and OpenTelemetry's jars
   * (automatic modules), without remoting ({@code requires static}): a binder publishes a system's
   * meters there, and tracing installs on it and uninstalls.
   */
  @Test
  void theObservabilityModulesWorkOnTheModulePathWithoutRemoting() throws Exception {
    ModuleLayer layer =
        moduleLayer(
            Set.of(API, MICROMETER, OPENTELEMETRY),
            dev.troupe.micrometer.TroupeMetrics.class,
            dev.troupe.opentelemetry.TroupeTracing.class,
            io.micrometer.core.instrument.MeterRegistry.class,
            io.micrometer.common.KeyValue.class,
            io.micrometer.observation.Observation.class,
            org.jspecify.annotations.Nullable.class,
            org.HdrHistogram.Histogram.class,
            io.opentelemetry.api.OpenTelemetry.class,
            io.opentelemetry.context.Context.class,
            io.opentelemetry.common.ComponentLoader.class);
    assertTrue(layer.findModule(REMOTING).isEmpty(), "remoting resolved without being asked for");
    ClassLoader loader = layer.findLoader(MICROMETER);
    Class<?> actorSystem = Class.forName("dev.troupe.actor.ActorSystem", true, loader);
    Object system = createInLayer(actorSystem, loader, "modular-observed");
    try {
      Class<?> registryType = Class.forName("io.micrometer.core.instrument.MeterRegistry", true, loader);
      Object registry =
          Class.forName("io.micrometer.core.instrument.simple.SimpleMeterRegistry", true, loader)
              .getConstructor()
              .newInstance();
      Class<?> metrics = Class.forName("dev.troupe.micrometer.TroupeMetrics", true, loader);
      Object binder = metrics.getConstructor(actorSystem).newInstance(system);
      metrics.getMethod("bindTo", registryType).invoke(binder, registry);
      List<?> meters = (List<?>) registryType.getMethod("getMeters").invoke(registry);
      assertFalse(meters.isEmpty(), "meters the binder published on the module path");

      Class<?> openTelemetry = Class.forName("io.opentelemetry.api.OpenTelemetry", true, loader);
      Class<?> tracing = Class.forName("dev.troupe.opentelemetry.TroupeTracing", true, loader);
      Object installed =
          tracing
              .getMethod("install", actorSystem, openTelemetry)
              .invoke(null, system, openTelemetry.getMethod("noop").invoke(null));
      tracing.getMethod("uninstall").invoke(installed);
    } finally {
      terminateInLayer(actorSystem, system);
    }
  }

  /**
   * The remoting module resolves with Jackson on a module path of its own, and its registry,
   * created there, instantiates its serializers by name and round-trips Troupe's messages.
   */
  @Test
  void theRemotingModuleSerializesMessagesOnTheModulePath() throws Exception {
    ModuleLayer layer = remotingLayer();
    ClassLoader loader = layer.findLoader(REMOTING);
    Class<?> actorSystem = Class.forName("dev.troupe.actor.ActorSystem", true, loader);
    Class<?> serialization = Class.forName("dev.troupe.serialization.Serialization", true, loader);
    assertEquals(REMOTING, serialization.getModule().getName(), "module of Serialization in the layer");
    Object system = createInLayer(actorSystem, loader, "modular-remoting");
    try {
      Object identify =
          Class.forName("dev.troupe.actor.Identify", true, loader)
              .getConstructor(Object.class)
              .newInstance("who");
      assertEquals(
          identify, roundTripInLayer(loader, actorSystem, system, identify).back(),
          "Identify after a round trip through the registry");
    } finally {
      terminateInLayer(actorSystem, system);
    }
  }

  /**
   * With the typed module in the layer, remoting finds its {@code ClassicRefView} through {@code
   * provides}/{@code uses}: a typed ref is bound to the ref serializer and read back as a typed ref.
   */
  @Test
  void theRemotingModuleSerializesATypedRefOnTheModulePathWhenTheTypedModuleIsThere() throws Exception {
    ModuleLayer layer =
        moduleLayer(Set.of(API, REMOTING, TYPED), remotingModules(dev.troupe.actor.typed.Behavior.class));
    ClassLoader loader = layer.findLoader(REMOTING);
    Class<?> actorSystem = Class.forName("dev.troupe.actor.ActorSystem", true, loader);
    Class<?> typedRef = Class.forName("dev.troupe.actor.typed.ActorRef", true, loader);
    assertEquals(TYPED, typedRef.getModule().getName(), "module of the typed ActorRef in the layer");
    Object system = createInLayer(actorSystem, loader, "modular-typed-refs");
    try {
      Object classicRef = actorSystem.getMethod("deadLetters").invoke(system);
      Object ref =
          Class.forName("dev.troupe.actor.typed.javadsl.Adapter", true, loader)
              .getMethod("toTyped", Class.forName("dev.troupe.actor.ActorRef", true, loader))
              .invoke(null, classicRef);
      RoundTrip r = roundTripInLayer(loader, actorSystem, system, ref);
      assertEquals(4, r.serializerId(), "serializer of a typed ref on the module path");
      assertTrue(typedRef.isInstance(r.back()), "a typed ref read back on the module path: " + r.back());
      assertEquals(ref, r.back(), "the typed ref after a round trip through the registry");
    } finally {
      terminateInLayer(actorSystem, system);
    }
  }

  /**
   * On the module path, {@code troupe.actor.provider = remote} finds the remoting module's factory
   * through {@code provides}, Netty's modules resolve, and a message crosses from one node to
   * another (a selection by the full path of the other node's test actor).
   */
  @Test
  void twoRemoteNodesOnTheModulePathExchangeAMessage() throws Exception {
    ModuleLayer layer = remotingLayer();
    ClassLoader loader = layer.findLoader(REMOTING);
    Class<?> actorSystem = Class.forName("dev.troupe.actor.ActorSystem", true, loader);
    Class<?> config = Class.forName("com.typesafe.config.Config", true, loader);
    Object remote =
        Class.forName("com.typesafe.config.ConfigFactory", true, loader)
            .getMethod("parseString", String.class)
            .invoke(
                null,
                "troupe.actor.provider = remote\n"
                    + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
                    + "troupe.remote.canonical.port = 0\n");
    Object a = createInLayer(actorSystem, config, loader, "modular-a", remote);
    Object b = null;
    try {
      b = createInLayer(actorSystem, config, loader, "modular-b", remote);
      String address = actorSystem.getMethod("address").invoke(b).toString();
      assertTrue(address.matches("troupe://modular-b@127\\.0\\.0\\.1:[1-9][0-9]*"), "address of b: " + address);
      Class<?> testKit = Class.forName("dev.troupe.testkit.TestKit", true, layer.findLoader(TESTKIT));
      Class<?> actorRef = Class.forName("dev.troupe.actor.ActorRef", true, loader);
      Object kit = testKit.getConstructor(actorSystem).newInstance(b);
      Object testActor = testKit.getMethod("getTestActor").invoke(kit);
      String path = actorRef.getMethod("path").invoke(testActor).toString();
      assertTrue(path.startsWith(address + "/"), "the test actor's path names b's address: " + path);
      Object selection = actorSystem.getMethod("actorSelection", String.class).invoke(a, path);
      Class.forName("dev.troupe.actor.ActorSelection", true, loader)
          .getMethod("tell", Object.class, actorRef)
          .invoke(selection, "across", null);
      assertEquals(
          "across",
          testKit.getMethod("expectMsg", Duration.class, Object.class)
              .invoke(kit, Duration.ofSeconds(10), "across"),
          "the message b's test actor received from a");
    } finally {
      if (b != null) {
        terminateInLayer(actorSystem, b);
      }
      terminateInLayer(actorSystem, a);
    }
  }

  /** What {@link #roundTripInLayer} saw: the serializer's identifier, and the value read back. */
  private record RoundTrip(int serializerId, Object back) {}

  /** Serializes {@code value} with the registry of {@code system} (in a layer) and reads it back. */
  private static RoundTrip roundTripInLayer(ClassLoader loader, Class<?> actorSystem, Object system, Object value)
      throws Exception {
    Class<?> serialization = Class.forName("dev.troupe.serialization.Serialization", true, loader);
    Class<?> serialized = Class.forName("dev.troupe.serialization.Serialized", true, loader);
    Object registry =
        withContextLoader(loader, () -> serialization.getMethod("get", actorSystem).invoke(null, system));
    Object s = serialization.getMethod("serialize", Object.class).invoke(registry, value);
    int id = (Integer) serialized.getMethod("serializerId").invoke(s);
    Object back =
        serialization
            .getMethod("deserialize", int.class, String.class, byte[].class)
            .invoke(registry, id, serialized.getMethod("manifest").invoke(s), serialized.getMethod("bytes").invoke(s));
    return new RoundTrip(id, back);
  }

  /** Troupe's API, remoting and testkit with Jackson and Netty, in a module layer of their own. */
  private static ModuleLayer remotingLayer() {
    return moduleLayer(Set.of(API, REMOTING, TESTKIT), remotingModules());
  }

  /** Classes of the remoting module, Jackson and Netty (for {@link #modulePath}), plus {@code more}. */
  private static Class<?>[] remotingModules(Class<?>... more) {
    List<Class<?>> classes = new ArrayList<>(List.of(
        dev.troupe.serialization.Serialization.class,
        com.fasterxml.jackson.core.JsonFactory.class,
        com.fasterxml.jackson.annotation.JsonProperty.class,
        com.fasterxml.jackson.databind.ObjectMapper.class,
        com.fasterxml.jackson.dataformat.cbor.CBORFactory.class,
        com.fasterxml.jackson.datatype.jdk8.Jdk8Module.class,
        com.fasterxml.jackson.datatype.jsr310.JavaTimeModule.class,
        com.fasterxml.jackson.module.paramnames.ParameterNamesModule.class,
        io.netty.buffer.ByteBuf.class,
        io.netty.util.concurrent.Future.class,
        io.netty.resolver.AddressResolver.class,
        io.netty.channel.Channel.class,
        io.netty.channel.unix.Socket.class,
        io.netty.channel.epoll.Epoll.class, // remoting requires the epoll transport's classes (troupe.remote.advanced.transport)
        io.netty.handler.codec.LengthFieldPrepender.class,
        io.netty.handler.timeout.ReadTimeoutHandler.class));
    classes.addAll(List.of(more));
    return classes.toArray(Class<?>[]::new);
  }

  /**
   * The descriptors resolve on a module path holding only Troupe's modules and their runtime
   * dependencies, service binding pulls in the runtime for the API's {@code uses}, and {@code
   * ActorSystem.create} started from the module layer finds it through {@code provides} (named
   * modules ignore META-INF/services), starts a system, passes a message through the testkit's
   * actor and terminates the system.
   */
  @Test
  void aModularApplicationCanStartAndTerminateASystemOnTheModulePath() throws Exception {
    // An application that requires only dev.troupe.actor gets the runtime by service binding.
    assertTrue(
        ModuleLayer.boot()
            .configuration()
            .resolveAndBind(modulePath(), ModuleFinder.of(), Set.of(API))
            .findModule(RUNTIME)
            .isPresent(),
        "service binding did not resolve dev.troupe.runtime for dev.troupe.actor's 'uses'");
    ModuleLayer layer = moduleLayer(Set.of(API, TESTKIT));
    ClassLoader loader = layer.findLoader(API);
    Class<?> actorSystem = Class.forName("dev.troupe.actor.ActorSystem", true, loader);
    assertEquals(API, actorSystem.getModule().getName(), "module of ActorSystem in the layer");

    Object system = createInLayer(actorSystem, loader, "modular");
    try {
      assertEquals(
          RUNTIME,
          system.getClass().getModule().getName(),
          "module of the system that ActorSystem.create returned");
      assertEquals("modular", actorSystem.getMethod("name").invoke(system), "the system's name");
      // A message round trip through an actor of another module (the testkit's test actor).
      Class<?> testKit =
          Class.forName("dev.troupe.testkit.TestKit", true, layer.findLoader(TESTKIT));
      Class<?> actorRef = Class.forName("dev.troupe.actor.ActorRef", true, loader);
      Object kit = testKit.getConstructor(actorSystem).newInstance(system);
      Object testActor = testKit.getMethod("getTestActor").invoke(kit);
      testKit.getMethod("send", actorRef, Object.class).invoke(kit, testActor, "ping");
      assertEquals(
          "ping",
          testKit.getMethod("expectMsg", Duration.class, Object.class)
              .invoke(kit, Duration.ofSeconds(5), "ping"),
          "the message the test actor received");
    } finally {
      terminateInLayer(actorSystem, system);
    }
  }

  /**
   * A module path holding only Troupe's modules and their runtime dependencies, plus the modules
   * (or jars) that hold {@code extra}.
   */
  private static ModuleFinder modulePath(Class<?>... extra) {
    List<Path> locations =
        new ArrayList<>(
            List.of(
                locationOf(dev.troupe.actor.ActorSystem.class),
                locationOf(dev.troupe.executors.AffinityPool.class),
                locationOf(dev.troupe.dispatch.UnboundedMailbox.class),
                locationOf(dev.troupe.testkit.TestKit.class),
                locationOf(com.typesafe.config.Config.class),
                locationOf(org.jctools.queues.MpscArrayQueue.class),
                locationOf(org.slf4j.Logger.class),
                locationOf(org.junit.jupiter.api.Test.class),
                locationOf(org.junit.platform.commons.JUnitException.class),
                locationOf(org.opentest4j.AssertionFailedError.class)));
    for (Class<?> c : extra) {
      locations.add(locationOf(c));
    }
    return ModuleFinder.of(locations.toArray(Path[]::new));
  }

  /**
   * Resolves {@code roots} (with service binding) on {@link #modulePath} and defines them in a layer
   * whose parent is the platform loader, so that nothing of Troupe's class path is visible in it.
   */
  private static ModuleLayer moduleLayer(Set<String> roots, Class<?>... extra) {
    Configuration configuration =
        ModuleLayer.boot().configuration().resolveAndBind(modulePath(extra), ModuleFinder.of(), roots);
    return ModuleLayer.boot()
        .defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
  }

  /** {@code ActorSystem.create(name)} in a layer. */
  private static Object createInLayer(Class<?> actorSystem, ClassLoader loader, String name)
      throws Exception {
    return withContextLoader(
        loader, () -> actorSystem.getMethod("create", String.class).invoke(null, name));
  }

  /**
   * Runs {@code action} with the layer's loader as the context class loader, as a modular
   * application's threads have the loader of the module path: Lightbend Config reads
   * reference.conf, and the serialization registry loads its serializers, through it.
   */
  private static Object withContextLoader(ClassLoader loader, Callable<Object> action)
      throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return action.call();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** {@code ActorSystem.create(name, config)} in a layer (reference.conf is read through the layer). */
  private static Object createInLayer(
      Class<?> actorSystem, Class<?> config, ClassLoader loader, String name, Object overrides) throws Exception {
    return withContextLoader(
        loader, () -> actorSystem.getMethod("create", String.class, config).invoke(null, name, overrides));
  }

  private static void terminateInLayer(Class<?> actorSystem, Object system) throws Exception {
    CompletionStage<?> terminated = (CompletionStage<?>) actorSystem.getMethod("terminate").invoke(system);
    terminated.toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  private static ModuleDescriptor descriptorOf(Class<?> member, String expectedName) {
    Path location = locationOf(member);
    Set<ModuleReference> found = ModuleFinder.of(location).findAll();
    assertEquals(1, found.size(), "modules found at " + location);
    ModuleDescriptor descriptor = found.iterator().next().descriptor();
    assertFalse(
        descriptor.isAutomatic(),
        location + " has no module-info.class (" + descriptor.name() + " is an automatic module);"
            + " is it an artifact built before the module descriptors?");
    assertEquals(expectedName, descriptor.name(), "module name of " + location);
    return descriptor;
  }

  private static Path locationOf(Class<?> member) {
    CodeSource source = member.getProtectionDomain().getCodeSource();
    assertNotNull(source, "no code source for " + member.getName());
    try {
      return Path.of(source.getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("code source of " + member.getName(), e);
    }
  }

  private static Set<String> unqualifiedExports(ModuleDescriptor module) {
    return module.exports().stream()
        .filter(e -> !e.isQualified())
        .map(Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Map<String, Set<String>> qualifiedExports(ModuleDescriptor module) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (Exports e : module.exports()) {
      if (e.isQualified()) {
        out.put(e.source(), new TreeSet<>(e.targets()));
      }
    }
    return out;
  }

  private static void assertNothingOpened(ModuleDescriptor module) {
    assertOpens(module, Map.of(), module.name() + " opens no package");
  }

  private static void assertOpens(
      ModuleDescriptor module, Map<String, Set<String>> expected, String message) {
    assertFalse(module.isOpen(), module.name() + " must not be an open module");
    Map<String, Set<String>> opens = new TreeMap<>();
    for (Opens o : module.opens()) {
      opens.put(o.source(), o.isQualified() ? new TreeSet<>(o.targets()) : Set.of("<everyone>"));
    }
    assertEquals(expected, opens, message);
  }

  private static void assertRequiresTransitive(ModuleDescriptor module, String required) {
    Requires requires =
        module.requires().stream()
            .filter(r -> r.name().equals(required))
            .findFirst()
            .orElse(null);
    assertNotNull(requires, module.name() + " must require " + required);
    assertTrue(
        requires.modifiers().contains(Requires.Modifier.TRANSITIVE),
        module.name() + " must require " + required + " transitively (its types are in the API)");
  }
}
