package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.testkit.ActorSystemExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The most specific binding picks the serializer; what matches nothing or two things is named. */
class SerializerBindingsTest {
  interface Event {}

  interface OrderEvent extends Event {}

  interface Audited {}

  interface Tagged {}

  interface Indirect extends Tagged {}

  static class Base implements Audited {}

  static class Placed extends Base implements OrderEvent {}

  static final class PlacedSpecial extends Placed {}

  /** OrderEvent (json) and Audited (cbor) both at distance 1, unrelated: ambiguous. */
  static final class Both implements OrderEvent, Audited {}

  /** The same ambiguity, settled by binding the class itself. */
  static final class BothButBound implements OrderEvent, Audited {}

  /** Event and OrderEvent both at distance 1: OrderEvent extends Event, so it is the more specific. */
  static final class Related implements Event, OrderEvent {}

  /** Audited at distance 1 beats Tagged at distance 2 (through Indirect), though they are unrelated. */
  static final class NearerWins implements Audited, Indirect {}

  static final class Unbound {}

  static final class OnlyObject implements Runnable {
    @Override
    public void run() {}
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.serialization.bindings {\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$Event\" = jackson-cbor\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$OrderEvent\" = jackson-json\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$Audited\" = jackson-cbor\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$Tagged\" = jackson-json\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$Base\" = troupe-string\n"
              + "  \"dev.troupe.serialization.SerializerBindingsTest$BothButBound\" = jackson-cbor\n"
              + "  \"java.lang.Runnable\" = none\n"
              + "  \"java.lang.Boolean\" = none\n"
              + "}");

  private static int idFor(Class<?> c) {
    return Serialization.get(TROUPE.system()).serializerFor(c).identifier();
  }

  @Test
  void theClassItselfWinsOverEverythingElse() {
    assertEquals(21, idFor(BothButBound.class));
    assertEquals(2, idFor(String.class));
  }

  @Test
  void aBoundSuperclassWinsOverTheClassesInterfaces() {
    assertEquals(2, idFor(Placed.class), "Base (a superclass) over OrderEvent (an interface)");
    assertEquals(2, idFor(PlacedSpecial.class), "the nearest superclass, two levels up");
  }

  @Test
  void ofTwoRelatedInterfacesAsNearTheSubInterfaceWins() {
    assertEquals(20, idFor(Related.class), "OrderEvent extends Event");
  }

  @Test
  void aNearerInterfaceWinsOverAFartherUnrelatedOne() {
    assertEquals(21, idFor(NearerWins.class));
  }

  @Test
  void twoUnrelatedInterfacesAsNearBoundToDifferentSerializersAreAnAmbiguityNamingBoth() {
    SerializationException e =
        assertThrows(SerializationException.class, () -> Serialization.get(TROUPE.system()).serialize(new Both()));
    assertTrue(e.getMessage().contains("ambiguous serializer for " + Both.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains(OrderEvent.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains(Audited.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains("bind " + Both.class.getName() + " itself"), e.getMessage());
  }

  @Test
  void anUnboundClassIsASerializationExceptionNamingTheClassAndTheKey() {
    SerializationException e =
        assertThrows(SerializationException.class, () -> Serialization.get(TROUPE.system()).serialize(new Unbound()));
    assertTrue(e.getMessage().contains("no serializer is bound for " + Unbound.class.getName()), e.getMessage());
    assertTrue(e.getMessage().contains("troupe.serialization.bindings"), e.getMessage());
  }

  @Test
  void aBindingToNoneRemovesIt() {
    assertThrows(SerializationException.class, () -> idFor(Boolean.class), "reference.conf's Boolean binding removed");
    assertThrows(SerializationException.class, () -> idFor(OnlyObject.class));
  }

  @Test
  void anUnknownSerializerIdIsNamedWithTheOnesThisSystemHas() {
    SerializationException e =
        assertThrows(SerializationException.class, () -> Serialization.get(TROUPE.system()).deserialize(4711, "", new byte[0]));
    assertTrue(e.getMessage().contains("no serializer with identifier 4711"), e.getMessage());
    assertTrue(e.getMessage().contains("'jackson-cbor' (id 21"), e.getMessage());
    for (int id : new int[] {0, 200, 255, 256, -1}) { // small ids are looked up in an array: none there is as unknown
      SerializationException small =
          assertThrows(SerializationException.class, () -> Serialization.get(TROUPE.system()).deserialize(id, "", new byte[0]));
      assertTrue(small.getMessage().contains("no serializer with identifier " + id + " "), small.getMessage());
    }
    assertEquals("x", Serialization.get(TROUPE.system()).deserialize(idFor(String.class), "", "x".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        "a known small id");
  }
}
