package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorIdentity;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Identify;
import dev.troupe.actor.Kill;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Status;
import dev.troupe.actor.Terminated;
import dev.troupe.runtime.spi.ActorSelectionMessage;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.runtime.spi.SystemMessages.DeathWatchNotification;
import dev.troupe.runtime.spi.SystemMessages.Unwatch;
import dev.troupe.runtime.spi.SystemMessages.Watch;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every built-in serializer round-trips what it is bound to, and rejects bytes it cannot read. */
class BuiltInSerializersTest {
  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass("");

  private static final int PROPERTY_RUNS = 2_000;

  private static Serialization serialization() {
    return Serialization.get(TROUPE.system());
  }

  private static Object roundTrip(Object o) {
    Serialized s = serialization().serialize(o);
    return serialization().deserialize(s.serializerId(), s.manifest(), s.bytes());
  }

  private static void assertRoundTrips(Object o) {
    assertEquals(o, roundTrip(o), "round trip of " + o + " (" + o.getClass().getName() + ")");
  }

  @Test
  void stringsRoundTripAsUtf8WithoutAManifest() {
    Serialized s = serialization().serialize("grüße, 世界 🎭");
    assertEquals(2, s.serializerId(), "identifier of the string serializer");
    assertEquals("", s.manifest());
    assertEquals("grüße, 世界 🎭", new String(s.bytes(), java.nio.charset.StandardCharsets.UTF_8));
    assertRoundTrips("");
  }

  @Test
  void randomStringsOfValidCodePointsRoundTrip() {
    Random random = new Random(42);
    for (int i = 0; i < PROPERTY_RUNS; i++) {
      StringBuilder sb = new StringBuilder();
      int length = random.nextInt(40);
      for (int j = 0; j < length; j++) {
        int cp = random.nextInt(Character.MAX_CODE_POINT + 1);
        if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
          sb.appendCodePoint(cp);
        }
      }
      assertRoundTrips(sb.toString());
    }
  }

  @Test
  void byteArraysRoundTripAsThemselves() {
    byte[] bytes = {0, 1, -1, 127, -128};
    Serialized s = serialization().serialize(bytes);
    assertEquals(1, s.serializerId());
    assertArrayEquals(bytes, s.bytes());
    assertArrayEquals(bytes, (byte[]) roundTrip(bytes));
    assertArrayEquals(new byte[0], (byte[]) roundTrip(new byte[0]));
  }

  @Test
  void boxedPrimitivesRoundTripIncludingTheirExtremes() {
    for (Object o :
        List.of(
            0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE,
            0L, -1L, Long.MAX_VALUE, Long.MIN_VALUE,
            0.0, -0.0, Double.MAX_VALUE, Double.MIN_VALUE, Double.NEGATIVE_INFINITY,
            1.5f, -0.0f, Float.MAX_VALUE, Float.POSITIVE_INFINITY,
            (short) 0, Short.MAX_VALUE, Short.MIN_VALUE,
            (byte) 0, Byte.MAX_VALUE, Byte.MIN_VALUE,
            true, false,
            'a', '\0', Character.MAX_VALUE, '\uD800')) {
      assertRoundTrips(o);
    }
    assertTrue(Double.isNaN((Double) roundTrip(Double.NaN)), "NaN stays NaN");
    assertTrue(Float.isNaN((Float) roundTrip(Float.NaN)), "NaN stays NaN");
  }

  @Test
  void randomBoxedPrimitivesRoundTripAndSmallIntegersTakeOneByte() {
    Random random = new Random(7);
    for (int i = 0; i < PROPERTY_RUNS; i++) {
      assertRoundTrips(random.nextInt());
      assertRoundTrips(random.nextLong());
      assertRoundTrips(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      assertRoundTrips(random.nextFloat());
      assertRoundTrips((short) random.nextInt());
      assertRoundTrips((byte) random.nextInt());
      assertRoundTrips((char) random.nextInt());
      assertRoundTrips(random.nextBoolean());
    }
    for (int v = -64; v < 64; v++) {
      assertEquals(1, serialization().serialize(v).bytes().length, "bytes of " + v);
    }
  }

  @Test
  void anActorRefRoundTripsToTheSameLiveActor() {
    TestKit probe = new TestKit(TROUPE.system());
    ActorRef ref = probe.getRef();
    Serialized s = serialization().serialize(ref);
    assertEquals(4, s.serializerId());
    assertEquals(ref.path().toSerializationFormat(), new String(s.bytes(), java.nio.charset.StandardCharsets.UTF_8));

    ActorRef back = (ActorRef) roundTrip(ref);
    assertSame(ref, back, "a local path resolves to the live ref");
    back.tell("through the copy", ActorRef.noSender());
    probe.expectMsg("through the copy");
  }

  @Test
  void aRefToAStoppedIncarnationResolvesToAnEqualRefThatIsNotTheNewActor() {
    ActorRef ref = new TestKit(TROUPE.system()).getRef();
    ActorPath otherIncarnation = ref.path().withUid(ref.path().uid() + 1);
    ActorRef back =
        (ActorRef) serialization().deserialize(4, "", otherIncarnation.toSerializationFormat().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(otherIncarnation.uid(), back.path().uid());
    assertTrue(!back.equals(ref), "another uid is another actor");
  }

  @Test
  void identifyAndActorIdentityCarryAnyBoundValue() {
    ActorRef ref = new TestKit(TROUPE.system()).getRef();
    for (Object id : Arrays.asList("corr", 42, 7L, List.of("a").get(0), null, ref, new byte[0].length)) {
      assertRoundTrips(new Identify(id));
      assertRoundTrips(new ActorIdentity(id, Optional.of(ref)));
      assertRoundTrips(new ActorIdentity(id, Optional.empty()));
    }
    assertRoundTrips(new Identify(new Identify("nested")));
    assertEquals(6, serialization().serialize(new Identify(42)).bytes().length, "Identify(42): presence, id, manifest, length, 1-byte value");
  }

  @Test
  void statusSuccessRoundTripsItsValue() {
    assertRoundTrips(new Status.Success("done"));
    assertRoundTrips(new Status.Success(3.5));
    assertRoundTrips(new Status.Success(null));
  }

  @Test
  void statusFailureArrivesAsARemoteFailureNamingTheOriginalClassAndCauses() {
    IllegalStateException cause = new IllegalStateException("root cause");
    Status.Failure sent = new Status.Failure(new IllegalArgumentException("bad order 17", cause));

    Status.Failure got = (Status.Failure) roundTrip(sent);

    RemoteFailure failure = assertInstanceOf(RemoteFailure.class, got.cause());
    assertEquals(IllegalArgumentException.class.getName(), failure.originalClassName());
    assertEquals("bad order 17", failure.getMessage());
    assertEquals("java.lang.IllegalArgumentException: bad order 17", failure.toString());
    RemoteFailure inner = assertInstanceOf(RemoteFailure.class, failure.getCause());
    assertEquals(IllegalStateException.class.getName(), inner.originalClassName());
    assertEquals("root cause", inner.getMessage());
    assertNull(inner.getCause());
    assertEquals(0, failure.getStackTrace().length, "no local frames pretend to be the remote ones");

    Status.Failure again = (Status.Failure) roundTrip(got);
    assertEquals(IllegalArgumentException.class.getName(), ((RemoteFailure) again.cause()).originalClassName(),
        "a forwarded RemoteFailure keeps the original class name");
    assertNull(((Status.Failure) roundTrip(new Status.Failure(null))).cause());
  }

  @Test
  void aCyclicOrDeepCauseChainIsCutShort() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    RemoteFailure f = (RemoteFailure) ((Status.Failure) roundTrip(new Status.Failure(a))).cause();
    assertEquals("b", f.getCause().getMessage());
    assertNull(f.getCause().getCause(), "the cycle is written once");

    Throwable deep = new RuntimeException("0");
    for (int i = 1; i < 100; i++) {
      deep = new RuntimeException(Integer.toString(i), deep);
    }
    int depth = 0;
    for (Throwable t = ((Status.Failure) roundTrip(new Status.Failure(deep))).cause(); t != null; t = t.getCause()) {
      depth++;
    }
    assertEquals(16, depth, "causes written");
  }

  @Test
  void poisonPillAndKillArriveAsTheSingletons() {
    assertSame(PoisonPill.getInstance(), roundTrip(PoisonPill.getInstance()));
    assertSame(Kill.getInstance(), roundTrip(Kill.getInstance()));
    assertEquals(0, serialization().serialize(Kill.getInstance()).bytes().length);
  }

  @Test
  void terminatedRoundTripsWithItsFlags() {
    ActorRef ref = new TestKit(TROUPE.system()).getRef();
    for (boolean confirmed : new boolean[] {true, false}) {
      for (boolean addressGone : new boolean[] {true, false}) {
        assertRoundTrips(new Terminated(ref, confirmed, addressGone));
      }
    }
  }

  @Test
  void theSystemMessagesATransportCarriesRoundTripWithTheirRefs() {
    InternalActorRef a = InternalActorRef.internal(new TestKit(TROUPE.system()).getRef());
    InternalActorRef b = InternalActorRef.internal(new TestKit(TROUPE.system()).getRef());
    assertRoundTrips(new Watch(a, b));
    assertRoundTrips(new Unwatch(b, a));
    assertRoundTrips(new DeathWatchNotification(a, true, false));
    assertRoundTrips(new DeathWatchNotification(b, false, true));
    assertSame(SystemMessages.TERMINATE, roundTrip(SystemMessages.TERMINATE));
    assertEquals(6, serialization().serialize(SystemMessages.TERMINATE).serializerId());
    assertRoundTrips(new ActorSelectionMessage(new Identify("who"), List.of("user", "*", "..", "w-1")));
    assertRoundTrips(new ActorSelectionMessage("hello", List.of()));
  }

  @Test
  void truncatedOrPaddedBytesOfABuiltInAreASerializationExceptionNotACrash() {
    ActorRef ref = new TestKit(TROUPE.system()).getRef();
    List<Object> samples =
        List.of(new Identify("x"), new Terminated(ref, true, false), new Status.Failure(new RuntimeException("m")),
            new Watch(InternalActorRef.internal(ref), InternalActorRef.internal(ref)), 12345, 2.0, 'c');
    for (Object o : samples) {
      Serialized s = serialization().serialize(o);
      for (int cut = 0; cut < s.bytes().length; cut++) {
        byte[] truncated = Arrays.copyOf(s.bytes(), cut);
        assertThrows(SerializationException.class,
            () -> serialization().deserialize(s.serializerId(), s.manifest(), truncated), "truncated " + o + " at " + cut);
      }
      byte[] padded = Arrays.copyOf(s.bytes(), s.bytes().length + 1);
      assertThrows(SerializationException.class,
          () -> serialization().deserialize(s.serializerId(), s.manifest(), padded), "padded " + o);
    }
  }

  @Test
  void randomGarbageNeverEscapesAsAnythingButASerializationException() {
    Random random = new Random(3);
    int[] ids = {3, 5, 6};
    String[] manifests = {"I", "J", "S", "C", "Z", "A", "F", "T", "W", "D", "L"};
    for (int i = 0; i < PROPERTY_RUNS; i++) {
      byte[] junk = new byte[random.nextInt(24)];
      random.nextBytes(junk);
      int id = ids[random.nextInt(ids.length)];
      String manifest = manifests[random.nextInt(manifests.length)];
      try {
        serialization().deserialize(id, manifest, junk);
      } catch (SerializationException expected) {
        // fine: rejected
      }
    }
  }

  @Test
  void anUnknownManifestOfABuiltInIsNamed() {
    SerializationException e =
        assertThrows(SerializationException.class, () -> serialization().deserialize(5, "Q", new byte[0]));
    assertTrue(e.getMessage().contains("unknown manifest 'Q'"), e.getMessage());
    assertTrue(e.getMessage().contains("'troupe-messages' (id 5"), e.getMessage());
  }

  @Test
  void theRegistryIsOnePerSystem() {
    assertSame(serialization(), Serialization.get(TROUPE.system()));
    ActorSystem other = ActorSystem.create("other");
    try {
      assertTrue(Serialization.get(other) != serialization());
    } finally {
      other.terminate().toCompletableFuture().join();
    }
    assertTrue(Serialization.get(other) != Serialization.get(other), "a terminated system's registry is not kept");
  }
}
