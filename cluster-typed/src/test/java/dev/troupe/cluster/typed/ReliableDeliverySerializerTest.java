package dev.troupe.cluster.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorRefResolver;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ConsumerController.SequencedMessage;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.internal.ProducerControllerImpl;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.cluster.typed.internal.ReliableDeliverySerializer;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import dev.troupe.testkit.TestKit;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reliable delivery's wire messages through the system's registry, bound by the typed cluster's
 * reference.conf alone: every kind makes the round trip (the producer's message a record of the
 * user's bound to Jackson, a string, a typed ref), and bytes a peer may send (cut short, claiming
 * more than they hold or more than the bounds, numbers no controller sends, a delivery message
 * inside another, noise) are refused with an {@link IllegalArgumentException} that says why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReliableDeliverySerializerTest {
  /** A producer's message of the test, written by Jackson. */
  record Job(String text, int n) {}

  private static final int ID = ReliableDeliverySerializer.IDENTIFIER;

  private ActorSystem system;
  private Serialization serialization;
  private Serializer serializer;
  private ActorRef<ProducerController.Command<Object>> producerController;
  private ActorRef<ConsumerController.Command<Object>> consumerController;
  private String producerPath;

  @BeforeAll
  void start() {
    system = ActorSystem.create("delivery-wire", ConfigFactory.parseString("troupe.actor.provider = remote\n"
        + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
        + "troupe.remote.canonical.port = 0\n"
        + "troupe.serialization.bindings { \"" + Job.class.getName() + "\" = jackson-json }\n"));
    serialization = Serialization.get(system);
    serializer = serialization.serializerById(ID);
    producerController = Adapter.spawn(system, Behaviors.empty(), "producer-controller");
    consumerController = Adapter.spawn(system, Behaviors.empty(), "consumer-controller");
    producerPath = ActorRefResolver.get(Adapter.toTyped(system)).toSerializationFormat(producerController);
  }

  @AfterAll
  void stop() {
    TestKit.shutdownActorSystem(system);
  }

  private Object roundTrip(Object message, String manifest) {
    Serialized s = serialization.serialize(message);
    assertEquals(ID, s.serializerId(), "bound by reference.conf: " + message);
    assertEquals(manifest, s.manifest());
    Object back = serialization.deserialize(s.serializerId(), s.manifest(), s.bytes());
    assertArrayEquals(s.bytes(), serialization.serialize(back).bytes(), "written again the same: " + message);
    return back;
  }

  private SequencedMessage<Object> sequenced(Object message) {
    return new SequencedMessage<>("producer-\u00e9", 42, message, true, false, producerController);
  }

  @Test
  void aSequencedMessageMakesTheRoundTripWithItsPayloadOfItsOwnClass() {
    for (Object payload : List.of(new Job("print", 3), "a string", consumerController)) {
      Object back = roundTrip(sequenced(payload), "S");
      assertEquals(sequenced(payload), back, "payload " + payload);
      assertEquals(payload.getClass(), ((SequencedMessage<?>) back).message().getClass());
    }
    SequencedMessage<Object> acked = new SequencedMessage<>("", Long.MAX_VALUE, "x", false, true, producerController);
    assertEquals(acked, roundTrip(acked, "S"));
  }

  @Test
  void theConsumerControllersAnswersAndTheRegistrationMakeTheRoundTrip() {
    for (Object m : List.of(new ProducerControllerImpl.Request<>(0, 50, true, false),
        new ProducerControllerImpl.Request<>(7, 7, false, true))) {
      assertEquals(m, roundTrip(m, "Q"));
    }
    assertEquals(new ProducerControllerImpl.Resend<>(9), roundTrip(new ProducerControllerImpl.Resend<>(9), "R"));
    assertEquals(new ProducerControllerImpl.Ack<>(0), roundTrip(new ProducerControllerImpl.Ack<>(0), "A"));
    ProducerController.RegisterConsumer<Object> register = new ProducerController.RegisterConsumer<>(consumerController);
    assertEquals(register, roundTrip(register, "C"));
  }

  @Test
  void aDeliveryMessageInsideASequencedMessageIsNotSent() {
    for (Object inner : List.of(sequenced("inner"), new ProducerControllerImpl.Ack<>(1))) {
      SerializationException e = assertThrows(SerializationException.class,
          () -> serialization.serialize(sequenced(inner)));
      assertTrue(e.getMessage().contains("a reliable delivery message inside another is not sent"), e.getMessage());
    }
  }

  /** A frame built by hand, as a peer could. */
  private static final class Frame {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    private interface Write {
      void to(DataOutputStream out) throws IOException;
    }

    private Frame put(Write w) {
      try {
        w.to(out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Frame str(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      return put(o -> o.writeShort(b.length)).put(o -> o.write(b));
    }

    Frame i32(int n) {
      return put(o -> o.writeInt(n));
    }

    Frame i64(long n) {
      return put(o -> o.writeLong(n));
    }

    Frame i8(int n) {
      return put(o -> o.writeByte(n));
    }

    Frame raw(byte[] b) {
      return put(o -> o.write(b));
    }

    byte[] bytes() {
      return bytes.toByteArray();
    }
  }

  /** A sequenced message's fields up to its payload: id {@code p}, number 1, no flags, the producer controller. */
  private Frame head() {
    return new Frame().str("p").i64(1).i8(0).str(producerPath);
  }

  /** A whole sequenced message whose payload is the string {@code s}. */
  private byte[] withString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return head().i32(2).str("").i32(b.length).raw(b).bytes();
  }

  Stream<Arguments> refusedFrames() {
    byte[] nested = serialization.serialize(sequenced("inner")).bytes();
    byte[] job = serialization.serialize(new Job("j", 1)).bytes();
    String longPath = producerPath + "x".repeat(1100);
    byte[] ok = withString("hello");
    return Stream.of(
        Arguments.of("an unknown manifest", "X", ok, "unknown reliable delivery manifest 'X'"),
        Arguments.of("an empty sequenced message", "S", new byte[0], "ends inside its producer id"),
        Arguments.of("a producer id claiming 64 KiB", "S", new Frame().i32(0xffff0000).bytes(),
            "producer id claims 65535 bytes"),
        Arguments.of("a producer id over the bound", "S",
            new Frame().str("p".repeat(1025)).bytes(), "producer id claims 1025 bytes (at most 1024"),
        Arguments.of("a sequence number of 0", "S", new Frame().str("p").i64(0).bytes(), "count from 1"),
        Arguments.of("a negative sequence number", "S", new Frame().str("p").i64(-5).bytes(), "count from 1"),
        Arguments.of("unknown flags", "S", new Frame().str("p").i64(1).i8(4).bytes(), "unknown flags"),
        Arguments.of("a producer controller that is no path", "S",
            new Frame().str("p").i64(1).i8(0).str("nowhere").bytes(), "producer controller 'nowhere' is not an actor path"),
        Arguments.of("a producer controller path over the bound", "S",
            new Frame().str("p").i64(1).i8(0).str(longPath).bytes(), "producer controller claims"),
        Arguments.of("a payload claiming 2 GiB", "S", head().i32(2).str("").i32(Integer.MAX_VALUE).raw(new byte[3]).bytes(),
            "message claims 2147483647 bytes where 3 are left"),
        Arguments.of("a payload of negative length", "S", head().i32(2).str("").i32(-1).bytes(),
            "message claims -1 bytes"),
        Arguments.of("a byte after the payload", "S", Arrays.copyOf(ok, ok.length + 1), "message claims 5 bytes where 6"),
        Arguments.of("a sequenced message inside another", "S", head().i32(ID).str("S").i32(nested.length).raw(nested)
            .bytes(), "a reliable delivery message inside another is refused"),
        Arguments.of("a payload of a serializer this node lacks", "S", head().i32(999).str("").i32(1).raw(new byte[1])
            .bytes(), "(serializer 999, manifest '') is not readable"),
        Arguments.of("a payload of a class not bound here", "S", head().i32(20).str("java.lang.Thread").i32(job.length)
            .raw(job).bytes(), "manifest 'java.lang.Thread') is not readable"),
        Arguments.of("a request cut short", "Q", new Frame().i64(1).bytes(), "ends inside its requested sequence number"),
        Arguments.of("a request below what is confirmed", "Q", new Frame().i64(5).i64(4).i8(0).bytes(),
            "requests up to 4, less than the confirmed 5"),
        Arguments.of("a request with a negative number", "Q", new Frame().i64(-1).i64(4).i8(0).bytes(),
            "confirmed sequence number is negative"),
        Arguments.of("a request with unknown flags", "Q", new Frame().i64(0).i64(4).i8(0x80).bytes(), "unknown flags"),
        Arguments.of("a request with a byte after it", "Q", new Frame().i64(0).i64(4).i8(1).i8(0).bytes(),
            "has 1 bytes after its fields"),
        Arguments.of("a resend from 0", "R", new Frame().i64(0).bytes(), "resend from 0"),
        Arguments.of("a resend cut short", "R", new Frame().i32(1).bytes(), "ends inside its first sequence number"),
        Arguments.of("an ack with bytes after it", "A", new Frame().i64(3).i64(3).bytes(), "has 8 bytes after its fields"),
        Arguments.of("a negative ack", "A", new Frame().i64(Long.MIN_VALUE).bytes(), "is negative"),
        Arguments.of("a registration without its ref", "C", new Frame().bytes(), "ends inside its consumer controller"),
        Arguments.of("a registration of no path", "C", new Frame().str("troupe://").bytes(), "is not an actor path"),
        Arguments.of("a registration with bytes after it", "C", new Frame().str(producerPath).i8(0).bytes(),
            "has 1 bytes after its fields"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedFrames")
  void aFrameAPeerMaySendIsRefusedWithAClearReason(String what, String manifest, byte[] bytes, String reason) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> serializer.fromBinary(bytes, manifest), what);
    assertTrue(e.getMessage().contains(reason), what + ": " + e.getMessage());
  }

  @Test
  void everyFrameCutShortIsRefusedAndNoiseIsEitherReadOrRefused() {
    List<Object> all = List.of(sequenced(new Job("a", 1)), new ProducerControllerImpl.Request<>(1, 9, true, true),
        new ProducerControllerImpl.Resend<>(2), new ProducerControllerImpl.Ack<>(2),
        new ProducerController.RegisterConsumer<>(consumerController));
    for (Object m : all) {
      Serialized whole = serialization.serialize(m);
      for (int n = 0; n < whole.bytes().length; n++) {
        byte[] cut = Arrays.copyOf(whole.bytes(), n);
        assertThrows(IllegalArgumentException.class, () -> serializer.fromBinary(cut, whole.manifest()),
            whole.manifest() + " cut to " + n + " bytes");
      }
    }
    SplittableRandom random = new SplittableRandom(36);
    for (int i = 0; i < 5000; i++) {
      String manifest = List.of("S", "Q", "R", "A", "C").get(random.nextInt(5));
      byte[] noise = new byte[random.nextInt(48)];
      for (int j = 0; j < noise.length; j++) {
        noise[j] = (byte) random.nextInt(256);
      }
      if (random.nextBoolean() && noise.length > 2) {
        noise[0] = 0;
        noise[1] = (byte) random.nextInt(8); // a plausible string length, so that the later fields are read
      }
      try {
        serializer.fromBinary(noise, manifest); // a frame that happens to be well formed
      } catch (IllegalArgumentException refused) {
        // the one way to refuse: any other exception fails the test
      }
    }
  }
}
