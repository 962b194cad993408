package dev.troupe.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestActors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Jackson serializers carry {@code java.time} values and {@code Optional}s without any set-up,
 * and take the user's modules and customizer from {@code troupe.serialization.jackson}.
 */
class JacksonModulesTest {
  /** Marks messages for jackson-cbor. */
  interface ViaCbor {}

  /** Marks messages for jackson-json. */
  interface ViaJson {}

  record Appointment(
      String who,
      Instant at,
      Duration length,
      LocalDate day,
      OffsetDateTime local,
      Optional<String> note,
      Optional<String> none,
      OptionalInt room,
      OptionalLong ticket)
      implements ViaCbor, ViaJson {}

  /** Holds an Appointment through jackson-json only (the record itself goes to the first binding that matches). */
  record JsonAppointment(Appointment appointment) implements ViaJson {}

  /** A value class that Jackson cannot read without help: no default constructor, no properties. */
  static final class Money {
    final long cents;

    Money(long cents) {
      this.cents = cents;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Money m && m.cents == cents;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(cents);
    }
  }

  record Price(Money amount) implements ViaJson {}

  /** The user's module: Money as "12.34". */
  public static final class MoneyModule extends SimpleModule {
    public MoneyModule() {
      super("money");
      addSerializer(Money.class, new StdSerializer<>(Money.class) {
        @Override
        public void serialize(Money m, JsonGenerator gen, SerializerProvider provider) throws IOException {
          gen.writeString(m.cents / 100 + "." + String.format("%02d", m.cents % 100));
        }
      });
      addDeserializer(Money.class, new StdDeserializer<>(Money.class) {
        @Override
        public Money deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
          return new Money(Math.round(Double.parseDouble(p.getText()) * 100));
        }
      });
    }
  }

  /** The user's customizer: pretty-printed JSON, which a test can see. */
  public static final class Indenting implements JacksonMapperCustomizer {
    @Override
    public void customize(MapperBuilder<?, ?> builder, String serializerName) {
      if (serializerName.equals("jackson-json")) {
        builder.enable(SerializationFeature.INDENT_OUTPUT);
      }
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.serialization.bindings {\n"
              + "  \"dev.troupe.serialization.JacksonModulesTest$ViaCbor\" = jackson-cbor\n"
              + "  \"dev.troupe.serialization.JacksonModulesTest$ViaJson\" = jackson-json\n"
              + "  \"dev.troupe.serialization.JacksonModulesTest$Appointment\" = jackson-cbor\n"
              + "}\n");

  static Appointment appointment() {
    return new Appointment(
        "ada",
        Instant.parse("2026-11-26T12:20:37.123456789Z"),
        Duration.ofMinutes(90).plusNanos(7),
        LocalDate.of(2026, 12, 1),
        OffsetDateTime.of(2026, 12, 1, 9, 30, 0, 0, ZoneOffset.ofHours(2)),
        Optional.of("bring the charts"),
        Optional.empty(),
        OptionalInt.of(12),
        OptionalLong.empty());
  }

  private static Object roundTrip(ActorSystem system, Object o) {
    Serialization s = Serialization.get(system);
    Serialized bytes = s.serialize(o);
    return s.deserialize(bytes.serializerId(), bytes.manifest(), bytes.bytes());
  }

  @Test
  void javaTimeValuesAndOptionalsRoundTripThroughCborAndJson() {
    Appointment a = appointment();
    assertEquals(21, Serialization.get(TROUPE.system()).serialize(a).serializerId(), "the record is bound to jackson-cbor");
    assertEquals(a, roundTrip(TROUPE.system(), a));
    JsonAppointment j = new JsonAppointment(a);
    assertEquals(j, roundTrip(TROUPE.system(), j));
  }

  @Test
  void aRecordOfJavaTimeValuesAndOptionalsCrossesTheNetworkBothWays() throws Exception {
    String remote =
        "troupe.actor.provider = remote\n"
            + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
            + "troupe.remote.canonical.port = 0\n";
    ActorSystem server = TROUPE.createSystem(remote);
    ActorSystem client = TROUPE.createSystem(remote);
    server.actorOf(TestActors.echoActorProps(), "echo");
    dev.troupe.actor.ActorRef echo =
        client.actorSelection(server.address() + "/user/echo").resolveOne(Duration.ofSeconds(10)).toCompletableFuture().get();
    for (Object m : List.of(appointment(), new JsonAppointment(appointment()))) {
      Object back = dev.troupe.pattern.Patterns.ask(echo, m, Duration.ofSeconds(10)).toCompletableFuture().get();
      assertEquals(m, back, "the echo of " + m.getClass().getSimpleName());
    }
  }

  @Test
  void jsonWritesDatesAsIsoTextAndAnEmptyOptionalAsNull() {
    String json =
        new String(Serialization.get(TROUPE.system()).serialize(new JsonAppointment(appointment())).bytes(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"at\":\"2026-11-26T12:20:37.123456789Z\""), json);
    assertTrue(json.contains("\"local\":\"2026-12-01T09:30:00+02:00\""), json);
    assertTrue(json.contains("\"note\":\"bring the charts\""), json);
    assertTrue(json.contains("\"none\":null"), json);
  }

  @Test
  void theUsersModulesAndCustomizerAreApplied() {
    ActorSystem system =
        TROUPE.createSystem(
            "troupe.serialization.jackson.modules = [\"" + MoneyModule.class.getName() + "\"]\n"
                + "troupe.serialization.jackson.mapper-customizer = \"" + Indenting.class.getName() + "\"\n");
    Price p = new Price(new Money(1234));
    String json = new String(Serialization.get(system).serialize(p).bytes(), StandardCharsets.UTF_8);
    assertTrue(json.contains("\"12.34\""), "the module wrote Money: " + json);
    assertTrue(json.contains("\n"), "the customizer indented the output: " + json);
    assertEquals(p, roundTrip(system, p));
  }

  @Test
  void aModuleOrCustomizerThatCannotBeUsedIsAConfigurationErrorNamingTheKey() {
    for (List<String> bad :
        List.of(
            List.of("modules = [\"com.example.NoSuchModule\"]", "troupe.serialization.jackson.modules", "not found"),
            List.of("modules = [\"java.lang.String\"]", "troupe.serialization.jackson.modules", "is not a com.fasterxml.jackson.databind.Module"),
            List.of("mapper-customizer = \"" + Money.class.getName() + "\"", "troupe.serialization.jackson.mapper-customizer", "is not a"),
            List.of("modules = 3", "troupe.serialization.jackson.modules", ""))) {
      ConfigurationException e =
          assertThrows(
              ConfigurationException.class,
              () -> Serialization.get(TROUPE.createSystem("troupe.serialization.jackson." + bad.get(0) + "\n")),
              bad.get(0));
      assertTrue(e.getMessage().contains(bad.get(1)) && e.getMessage().contains(bad.get(2)), e.getMessage());
    }
  }
}
