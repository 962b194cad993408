package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kinds of reference that stand for classic refs ({@code dev.troupe.actor.spi.ClassicRefView},
 * here the tests' {@link RefViewTestType}): bound to the ref serializer by default, written as their
 * classic refs' paths both as messages and as fields that Jackson writes, read back through the
 * view; a view's refusal is a serialization failure with its reason; a binding in the
 * configuration wins.
 */
class RefViewsTest {
  private static final String HOLDER = "troupe.serialization.bindings { \"" + Holder.class.getName() + "\" = jackson-json }";

  @RegisterExtension static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(HOLDER);

  /** A message with a field of the view's type, written by Jackson. */
  record Holder(String note, RefViewTestType handle) {}

  private static Serialization serialization() {
    return Serialization.get(TROUPE.system());
  }

  private static Object roundTrip(Serialized s) {
    return serialization().deserialize(s.serializerId(), s.manifest(), s.bytes());
  }

  private static ActorRef someActor() {
    return new TestKit(TROUPE.system()).getRef();
  }

  @Test
  void aViewSentAsAMessageTravelsAsItsClassicRefsPathAndIsReadBackThroughTheView() {
    ActorRef actor = someActor();
    Serialized s = serialization().serialize(new RefViewTestType("sent", actor));

    assertEquals(4, s.serializerId(), "a view's type is bound to the ref serializer by default");
    assertEquals(RefViewTestType.class.getName(), s.manifest(), "the manifest names the view's type");
    assertEquals(actor.path().toSerializationFormat(), new String(s.bytes(), StandardCharsets.UTF_8), "the bytes");
    assertEquals(new RefViewTestType("read", actor), roundTrip(s), "read back through the view, to the same actor");
  }

  @Test
  void aClassicRefKeepsItsEmptyManifestAndIsReadBackAsAClassicRef() {
    ActorRef actor = someActor();
    Serialized s = serialization().serialize(actor);
    assertEquals("", s.manifest(), "a classic ref's manifest");
    assertSame(actor, roundTrip(s), "the live local actor");
  }

  @Test
  void aFieldOfTheViewsTypeIsWrittenByJacksonAsThePath() {
    ActorRef actor = someActor();
    Serialized s = serialization().serialize(new Holder("n", new RefViewTestType("field", actor)));

    String json = new String(s.bytes(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"handle\":\"" + actor.path().toSerializationFormat() + "\""), json);
    assertEquals(new Holder("n", new RefViewTestType("read", actor)), roundTrip(s), "the holder read back");
  }

  @Test
  void aViewsRefusalFailsTheSerializationWithItsReason() {
    RefViewTestType local = new RefViewTestType("local-only", someActor());

    SerializationException asMessage = assertThrows(SerializationException.class, () -> serialization().serialize(local));
    assertTrue(asMessage.getMessage().contains("is local-only"), asMessage.getMessage());
    SerializationException asField =
        assertThrows(SerializationException.class, () -> serialization().serialize(new Holder("n", local)));
    assertTrue(asField.getMessage().contains("is local-only"), asField.getMessage());
  }

  @Test
  void aRefManifestThatNoViewHereKnowsIsRefused() {
    byte[] path = someActor().path().toSerializationFormat().getBytes(StandardCharsets.UTF_8);
    SerializationException e =
        assertThrows(SerializationException.class, () -> serialization().deserialize(4, "com.example.NoSuchRef", path));
    assertTrue(e.getMessage().contains("unknown ref manifest 'com.example.NoSuchRef'"), e.getMessage());
  }

  @Test
  void aBindingOfTheViewsTypeInTheConfigurationWins() {
    ActorSystem removed = TROUPE.createSystem("troupe.serialization.bindings { \"" + RefViewTestType.class.getName() + "\" = none }");
    SerializationException none =
        assertThrows(SerializationException.class, () -> Serialization.get(removed).serializerFor(RefViewTestType.class));
    assertTrue(none.getMessage().contains("no serializer is bound"), none.getMessage());

    ActorSystem json =
        TROUPE.createSystem("troupe.serialization.bindings { \"" + RefViewTestType.class.getName() + "\" = jackson-json }");
    assertInstanceOf(
        JacksonJsonSerializer.class, Serialization.get(json).serializerFor(RefViewTestType.class), "the configured binding");
  }
}
