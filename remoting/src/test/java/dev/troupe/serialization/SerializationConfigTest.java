package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The registry checks troupe.serialization when it is created, naming the key of each problem; a
 * user serializer is created by name and its failures are named.
 */
class SerializationConfigTest {

  /** A user serializer: strings reversed, id 1001; it needs the system. */
  public static final class Reversing implements Serializer {
    private final ActorSystem system;

    public Reversing(ActorSystem system) {
      this.system = system;
    }

    @Override
    public int identifier() {
      return 1001;
    }

    @Override
    public String manifest(Object o) {
      return system.name();
    }

    @Override
    public byte[] toBinary(Object o) {
      return new StringBuilder(((Text) o).value()).reverse().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      return new Text(new StringBuilder(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).reverse().toString());
    }
  }

  /** Writes and reads nothing; the test serializers below change what they test. */
  public abstract static class Stub implements Serializer {
    private final int identifier;

    Stub(int identifier) {
      this.identifier = identifier;
    }

    @Override
    public int identifier() {
      return identifier;
    }

    @Override
    public String manifest(Object o) {
      return "";
    }

    @Override
    public byte[] toBinary(Object o) {
      return new byte[0];
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      return "";
    }
  }

  /** Fails at everything, with a no-argument constructor. */
  public static final class Exploding extends Stub {
    public Exploding() {
      super(1002);
    }

    @Override
    public byte[] toBinary(Object o) {
      throw new IllegalStateException("boom on write");
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      throw new IllegalStateException("boom on read");
    }
  }

  /** Same identifier as Exploding. */
  public static final class Clashing extends Stub {
    public Clashing() {
      super(1002);
    }
  }

  /** Its constructor fails. */
  public static final class Broken extends Stub {
    public Broken() {
      super(1003);
      throw new IllegalArgumentException("no way");
    }
  }

  /** Has neither constructor the registry knows. */
  public static final class Unconstructible extends Stub {
    public Unconstructible(String unusable) {
      super(1005);
    }
  }

  /** Calls the registry from its constructor, which cannot work. */
  public static final class Eager extends Stub {
    public Eager(ActorSystem system) {
      super(1004);
      Serialization.get(system);
    }
  }

  record Text(String value) {}

  record Doomed(int n) {}

  private static final String PREFIX = "dev.troupe.serialization.SerializationConfigTest$";

  private static void withSystem(String hocon, Consumer<ActorSystem> test) {
    ActorSystem system = ActorSystem.create("serialization-config", ConfigFactory.parseString(hocon));
    try {
      test.accept(system);
    } finally {
      try {
        system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError("system did not terminate", e);
      }
    }
  }

  private static ConfigurationException creationFails(String hocon) {
    ConfigurationException[] thrown = new ConfigurationException[1];
    withSystem(hocon, system -> thrown[0] = assertThrows(ConfigurationException.class, () -> Serialization.get(system)));
    return thrown[0];
  }

  private static void assertMentions(Throwable e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + part + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void aUserSerializerIsCreatedWithItsSystemAndUsedForItsBindings() {
    withSystem(
        "troupe.serialization { serializers.reversing = \"" + PREFIX + "Reversing\"\n"
            + "  bindings { \"" + PREFIX + "Text\" = reversing } }",
        system -> {
          Serialization serialization = Serialization.get(system);
          Serialized s = serialization.serialize(new Text("abc"));
          assertEquals(new Serialized(1001, "serialization-config", "cba".getBytes(java.nio.charset.StandardCharsets.UTF_8)), s);
          assertEquals(new Text("abc"), serialization.deserialize(s.serializerId(), s.manifest(), s.bytes()));
          assertSame(serialization, Serialization.get(system));
        });
  }

  @Test
  void aThrowingSerializerSurfacesAsASerializationExceptionNamingIt() {
    withSystem(
        "troupe.serialization { serializers.exploding = \"" + PREFIX + "Exploding\"\n"
            + "  bindings { \"" + PREFIX + "Doomed\" = exploding } }",
        system -> {
          Serialization serialization = Serialization.get(system);
          SerializationException write =
              assertThrows(SerializationException.class, () -> serialization.serialize(new Doomed(1)));
          assertMentions(write, "serializer 'exploding' (id 1002", PREFIX + "Doomed", "boom on write");
          assertTrue(write.getCause() instanceof IllegalStateException);
          SerializationException read =
              assertThrows(SerializationException.class, () -> serialization.deserialize(1002, "x", new byte[3]));
          assertMentions(read, "serializer 'exploding' (id 1002", "manifest 'x'", "boom on read");
          SerializationException nested =
              assertThrows(SerializationException.class, () -> serialization.serialize(new dev.troupe.actor.Identify(new Doomed(2))));
          assertMentions(nested, "'troupe-messages'", "'exploding'", "boom on write");
        });
  }

  @Test
  void aBindingToAnUnknownSerializerNamesTheKey() {
    ConfigurationException e =
        creationFails("troupe.serialization.bindings { \"" + PREFIX + "Text\" = no-such-serializer }");
    assertMentions(e, "troupe.serialization.bindings.\"" + PREFIX + "Text\"", "no serializer named 'no-such-serializer'", "jackson-cbor");
  }

  @Test
  void aBindingOfAClassThatDoesNotExistNamesTheKey() {
    ConfigurationException e = creationFails("troupe.serialization.bindings { \"com.example.Missing\" = jackson-cbor }");
    assertMentions(e, "troupe.serialization.bindings.\"com.example.Missing\"", "class com.example.Missing not found");
  }

  @Test
  void anUnquotedBindingKeyIsReadAsTheDottedClassName() {
    ConfigurationException e = creationFails("troupe.serialization.bindings { com.example.Missing = jackson-cbor }");
    assertMentions(e, "class com.example.Missing not found");
  }

  @Test
  void aSerializerClassThatDoesNotExistNamesTheKey() {
    ConfigurationException e = creationFails("troupe.serialization.serializers.ghost = \"com.example.GhostSerializer\"");
    assertMentions(e, "troupe.serialization.serializers.ghost", "class com.example.GhostSerializer not found");
  }

  @Test
  void aSerializerClassThatIsNotASerializerNamesTheKey() {
    ConfigurationException e = creationFails("troupe.serialization.serializers.text = \"java.lang.String\"");
    assertMentions(e, "troupe.serialization.serializers.text", "does not implement " + Serializer.class.getName());
  }

  @Test
  void aSerializerWithoutAUsableConstructorOrWhoseConstructorFailsNamesTheKey() {
    assertMentions(
        creationFails("troupe.serialization.serializers.odd = \"" + PREFIX + "Unconstructible\""),
        "troupe.serialization.serializers.odd", "needs a public constructor taking dev.troupe.actor.ActorSystem");
    assertMentions(
        creationFails("troupe.serialization.serializers.broken = \"" + PREFIX + "Broken\""),
        "troupe.serialization.serializers.broken", "constructor failed", "no way");
  }

  @Test
  void twoSerializersWithOneIdentifierAreRefusedNamingBoth() {
    ConfigurationException e =
        creationFails(
            "troupe.serialization.serializers { a = \"" + PREFIX + "Exploding\", b = \"" + PREFIX + "Clashing\" }");
    assertMentions(e, "troupe.serialization.serializers", "'a' and 'b'", "identifier 1002");
  }

  @Test
  void aValueOfTheWrongTypeNamesTheKey() {
    assertMentions(
        creationFails("troupe.serialization.serializers.odd { x = 1 }"), "troupe.serialization.serializers.odd");
    assertMentions(
        creationFails("troupe.serialization.bindings { \"java.lang.Object\" = [jackson-cbor] }"),
        "troupe.serialization.bindings.\"java.lang.Object\"");
    assertMentions(
        creationFails("troupe.serialization.allow-java-serialization = maybe"), "troupe.serialization.allow-java-serialization");
  }

  @Test
  void allowingJavaSerializationFailsAndExplainsWhatToBindInstead() {
    ConfigurationException e = creationFails("troupe.serialization.allow-java-serialization = on");
    assertMentions(e, "troupe.serialization.allow-java-serialization", "never reads Java serialization", "jackson-cbor",
        "troupe.serialization.bindings");
  }

  @Test
  void aSerializerConstructorThatCallsTheRegistryIsToldNotTo() {
    ConfigurationException e = creationFails("troupe.serialization.serializers.eager = \"" + PREFIX + "Eager\"");
    assertMentions(e, "troupe.serialization.serializers.eager", "must not call it");
  }
}
