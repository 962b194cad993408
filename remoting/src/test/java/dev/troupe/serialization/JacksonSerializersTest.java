package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * jackson-cbor and jackson-json: users' records and plain classes with refs inside round-trip, new
 * fields are ignored, and only classes bound to the serializer are ever read.
 */
class JacksonSerializersTest {
  /** Marks messages for jackson-cbor. */
  interface ViaCbor {}

  /** Marks messages for jackson-json. */
  interface ViaJson {}

  record Order(String id, int quantity, ActorRef replyTo, List<ActorRef> watchers) implements ViaCbor {}

  record JsonOrder(String id, double price, ActorRef replyTo, List<ActorRef> watchers) implements ViaJson {}

  record Ping() implements ViaCbor {}

  record Version1(String name) implements ViaJson {}

  /** A plain class: no annotations, no getters, a private no-argument constructor. */
  static final class Account implements ViaCbor {
    private String owner;
    private long balance;
    private Map<String, Integer> limits;

    @SuppressWarnings("unused") // Jackson's
    private Account() {}

    Account(String owner, long balance, Map<String, Integer> limits) {
      this.owner = owner;
      this.balance = balance;
      this.limits = limits;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Account a && a.owner.equals(owner) && a.balance == balance && a.limits.equals(limits);
    }

    @Override
    public int hashCode() {
      return owner.hashCode();
    }
  }

  /** Bound to nothing: a peer naming it must not get it constructed. */
  static final class Gadget {
    static {
      GadgetWitness.INITIALIZED.set(true);
    }

    Gadget() {
      GadgetWitness.CONSTRUCTED.incrementAndGet();
    }
  }

  /** Observes Gadget without initializing it (reading a static field of Gadget would). */
  static final class GadgetWitness {
    static final AtomicBoolean INITIALIZED = new AtomicBoolean();
    static final AtomicInteger CONSTRUCTED = new AtomicInteger();
  }

  record Strict(String value) {}

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.serialization.bindings {\n"
              + "  \"dev.troupe.serialization.JacksonSerializersTest$ViaCbor\" = jackson-cbor\n"
              + "  \"dev.troupe.serialization.JacksonSerializersTest$ViaJson\" = jackson-json\n"
              + "  \"dev.troupe.serialization.JacksonSerializersTest$Strict\" = troupe-string\n"
              + "}");

  private static Serialization serialization() {
    return Serialization.get(TROUPE.system());
  }

  private static Object roundTrip(Object o) {
    Serialized s = serialization().serialize(o);
    assertEquals(o.getClass().getName(), s.manifest(), "the manifest is the class name");
    return serialization().deserialize(s.serializerId(), s.manifest(), s.bytes());
  }

  @Test
  void aRecordWithRefsRoundTripsThroughCborAndItsRefsReachTheActor() {
    TestKit a = new TestKit(TROUPE.system());
    TestKit b = new TestKit(TROUPE.system());
    Order order = new Order("o-1", 3, a.getRef(), List.of(a.getRef(), b.getRef()));

    assertEquals(21, serialization().serialize(order).serializerId());
    Order back = (Order) roundTrip(order);

    assertEquals(order, back);
    assertSame(a.getRef(), back.replyTo(), "the ref resolves to the live actor");
    back.watchers().get(1).tell("hi", ActorRef.noSender());
    b.expectMsg("hi");
  }

  @Test
  void aRecordWithRefsRoundTripsThroughJsonAsReadableText() {
    TestKit a = new TestKit(TROUPE.system());
    JsonOrder order = new JsonOrder("o-2", 9.5, a.getRef(), List.of(a.getRef()));

    Serialized s = serialization().serialize(order);

    assertEquals(20, s.serializerId());
    String json = new String(s.bytes(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"replyTo\":\"" + a.getRef().path().toSerializationFormat() + "\""), json);
    assertEquals(order, roundTrip(order));
  }

  @Test
  void nullRefsAndEmptyRecordsRoundTrip() {
    assertEquals(new Order("o-3", 0, null, List.of()), roundTrip(new Order("o-3", 0, null, List.of())));
    assertEquals(new Ping(), roundTrip(new Ping()));
  }

  @Test
  void aPlainClassWithoutAnnotationsOrGettersRoundTrips() {
    Account account = new Account("ada", 1_000_000_000_000L, Map.of("daily", 500));
    assertEquals(account, roundTrip(account));
  }

  @Test
  void randomRecordsRoundTripThroughBothFormats() {
    Random random = new Random(11);
    ActorRef ref = new TestKit(TROUPE.system()).getRef();
    for (int i = 0; i < 500; i++) {
      List<ActorRef> refs = new ArrayList<>();
      for (int n = random.nextInt(4); n > 0; n--) {
        refs.add(ref);
      }
      String id = Long.toString(random.nextLong(), 36);
      Order o = new Order(id, random.nextInt(), random.nextBoolean() ? ref : null, refs);
      JsonOrder j = new JsonOrder(id, random.nextDouble(), random.nextBoolean() ? ref : null, refs);
      assertEquals(o, roundTrip(o));
      assertEquals(j, roundTrip(j));
    }
  }

  @Test
  void propertiesTheReceiverDoesNotKnowAreIgnored() {
    byte[] newerSender = "{\"name\":\"n\",\"addedInVersion2\":[1,2,3]}".getBytes(StandardCharsets.UTF_8);
    assertEquals(new Version1("n"), serialization().deserialize(20, Version1.class.getName(), newerSender));
  }

  @Test
  void aManifestNamingAClassBoundToNothingIsRefusedWithoutInstantiatingIt() {
    for (int id : new int[] {20, 21}) {
      SerializationException e =
          assertThrows(SerializationException.class,
              () -> serialization().deserialize(id, "java.lang.ProcessBuilder", "{\"command\":[\"true\"]}".getBytes(StandardCharsets.UTF_8)));
      assertTrue(e.getMessage().contains("refusing to read java.lang.ProcessBuilder"), e.getMessage());
      assertTrue(e.getMessage().contains("troupe.serialization.bindings"), e.getMessage());

      assertThrows(SerializationException.class,
          () -> serialization().deserialize(id, Gadget.class.getName(), "{}".getBytes(StandardCharsets.UTF_8)));
    }
    assertEquals(0, GadgetWitness.CONSTRUCTED.get(), "Gadget instances made");
    assertFalse(GadgetWitness.INITIALIZED.get(), "Gadget's static initializer ran");
  }

  @Test
  void aManifestBoundToAnotherSerializerIsRefused() {
    SerializationException e =
        assertThrows(SerializationException.class,
            () -> serialization().deserialize(21, Strict.class.getName(), new byte[] {(byte) 0xa0}));
    assertTrue(e.getMessage().contains("it is bound to"), e.getMessage());
    SerializationException json =
        assertThrows(SerializationException.class,
            () -> serialization().deserialize(20, Order.class.getName(), "{}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(json.getMessage().contains("refusing to read " + Order.class.getName()), json.getMessage());
  }

  @Test
  void aManifestNamingNoClassAndMalformedBytesAreSerializationExceptions() {
    SerializationException unknown =
        assertThrows(SerializationException.class, () -> serialization().deserialize(21, "com.example.Gone", new byte[0]));
    assertTrue(unknown.getMessage().contains("unknown manifest 'com.example.Gone'"), unknown.getMessage());
    SerializationException garbage =
        assertThrows(SerializationException.class,
            () -> serialization().deserialize(20, Version1.class.getName(), "{\"name\":".getBytes(StandardCharsets.UTF_8)));
    assertTrue(garbage.getMessage().contains("cannot read " + Version1.class.getName()), garbage.getMessage());
    assertThrows(SerializationException.class,
        () -> serialization().deserialize(20, Version1.class.getName(), "{\"name\":\"a\"} {}".getBytes(StandardCharsets.UTF_8)),
        "bytes after the value");
    assertThrows(SerializationException.class,
        () -> serialization().deserialize(20, Order.class.getName().replace("Order", "JsonOrder"), "{\"replyTo\":7}".getBytes(StandardCharsets.UTF_8)),
        "a ref must be a path string");
  }
}
