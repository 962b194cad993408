package dev.troupe.cluster.typed.internal;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.ActorRefResolver;
import dev.troupe.actor.typed.delivery.ConsumerController;
import dev.troupe.actor.typed.delivery.ProducerController;
import dev.troupe.actor.typed.delivery.internal.ProducerControllerImpl;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;

/**
 * The messages that typed reliable delivery ({@code dev.troupe.actor.typed.delivery}) sends between
 * a producer controller and a consumer controller, identifier {@value #IDENTIFIER}, in the typed
 * cluster's {@link WireFrame}, one manifest a kind:
 *
 * <ul>
 *   <li>{@code S} {@link ConsumerController.SequencedMessage}: the producer id, the sequence number
 *       (8 bytes), a flags byte (1 first, 2 ack), the producer controller's ref, then the producer's
 *       message as the system's serialization writes it (its serializer's identifier, manifest and
 *       bytes), so that any message with a binding of its own arrives as its own class;
 *   <li>{@code Q} {@code Request}: the confirmed and the requested-up-to sequence numbers, a flags
 *       byte (1 resend supported, 2 via timeout);
 *   <li>{@code R} {@code Resend}: the first sequence number wanted again;
 *   <li>{@code A} {@code Ack}: the confirmed sequence number;
 *   <li>{@code C} {@link ProducerController.RegisterConsumer}: the consumer controller's ref.
 * </ul>
 *
 * <p>A ref is its full path with uid as {@link ActorRefResolver} writes it, resolved on arrival. On
 * read, a string or path over {@value WireFrame#MAX_STRING} bytes, a length other than what is left,
 * bytes after the fields, an unknown flag, a negative sequence number (or a first one of 0), a
 * request for less than is confirmed, a path that is not an actor's, or a delivery message inside a
 * {@code SequencedMessage} (so that a peer cannot make this node recurse) fails with an {@link
 * IllegalArgumentException}, which the transport reports and drops.
 */
public final class ReliableDeliverySerializer implements Serializer {
  /** This serializer's identifier. */
  public static final int IDENTIFIER = 36;

  private static final int FIRST = 1;
  private static final int ACK = 2;
  private static final int SUPPORT_RESEND = 1;
  private static final int VIA_TIMEOUT = 2;
  private static final String KIND = "a reliable delivery message";

  private final ActorSystem system;
  private final WireFrame frame;
  private volatile ActorRefResolver resolver; // made on first use: the system is still starting here

  /** @param system the system whose serialization writes the producers' messages and whose refs are resolved */
  public ReliableDeliverySerializer(ActorSystem system) {
    this.system = system;
    this.frame = new WireFrame(system, IDENTIFIER, KIND, ReliableDeliverySerializer::isWireMessage);
  }

  private ActorRefResolver resolver() {
    ActorRefResolver r = resolver;
    if (r == null) {
      r = ActorRefResolver.get(Adapter.toTyped(system));
      resolver = r;
    }
    return r;
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  /** @return whether this serializer writes {@code o} (one of the wire messages of reliable delivery) */
  private static boolean isWireMessage(Object o) {
    return o instanceof ConsumerController.SequencedMessage<?> || o instanceof ProducerControllerImpl.Request<?>
        || o instanceof ProducerControllerImpl.Resend<?> || o instanceof ProducerControllerImpl.Ack<?>
        || o instanceof ProducerController.RegisterConsumer<?>;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof ConsumerController.SequencedMessage<?>) {
      return "S";
    } else if (o instanceof ProducerControllerImpl.Request<?>) {
      return "Q";
    } else if (o instanceof ProducerControllerImpl.Resend<?>) {
      return "R";
    } else if (o instanceof ProducerControllerImpl.Ack<?>) {
      return "A";
    } else if (o instanceof ProducerController.RegisterConsumer<?>) {
      return "C";
    }
    throw new IllegalArgumentException("not a reliable delivery message: " + o);
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof ConsumerController.SequencedMessage<?> m) {
      Serialized inner = frame.payload(m.message());
      String producerController = path(m.producerController());
      return WireFrame.toBinary(128 + inner.bytes().length, out -> {
        frame.writeString(out, m.producerId(), "producer id");
        out.writeLong(m.seqNr());
        out.writeByte((m.first() ? FIRST : 0) | (m.ack() ? ACK : 0));
        frame.writeString(out, producerController, "producer controller");
        frame.writePayload(out, inner);
      });
    } else if (o instanceof ProducerControllerImpl.Request<?> r) {
      return WireFrame.toBinary(17, out -> {
        out.writeLong(r.confirmedSeqNr());
        out.writeLong(r.requestUpToSeqNr());
        out.writeByte((r.supportResend() ? SUPPORT_RESEND : 0) | (r.viaTimeout() ? VIA_TIMEOUT : 0));
      });
    } else if (o instanceof ProducerControllerImpl.Resend<?> r) {
      return WireFrame.toBinary(8, out -> out.writeLong(r.fromSeqNr()));
    } else if (o instanceof ProducerControllerImpl.Ack<?> a) {
      return WireFrame.toBinary(8, out -> out.writeLong(a.confirmedSeqNr()));
    } else if (o instanceof ProducerController.RegisterConsumer<?> c) {
      String consumerController = path(c.consumerController());
      return WireFrame.toBinary(64, out -> frame.writeString(out, consumerController, "consumer controller"));
    }
    throw new IllegalArgumentException("not a reliable delivery message: " + o);
  }

  private String path(ActorRef<?> ref) {
    return resolver().toSerializationFormat(ref);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    WireFrame.Reader in = frame.reader(bytes);
    switch (manifest) {
      case "S" -> {
        String producerId = in.readString("producer id");
        long seqNr = in.readLong("sequence number");
        if (seqNr < 1) {
          throw new IllegalArgumentException(KIND + "'s sequence number is " + seqNr + " (they count from 1)");
        }
        int flags = flags(in, FIRST | ACK);
        ActorRef<ProducerController.Command<Object>> producerController = ref(in, "producer controller");
        Object message = in.readPayload();
        return new ConsumerController.SequencedMessage<>(
            producerId, seqNr, message, (flags & FIRST) != 0, (flags & ACK) != 0, producerController);
      }
      case "Q" -> {
        long confirmed = seqNr(in, "confirmed sequence number");
        long upTo = seqNr(in, "requested sequence number");
        if (upTo < confirmed) {
          throw new IllegalArgumentException(KIND + " requests up to " + upTo + ", less than the confirmed "
              + confirmed);
        }
        int flags = flags(in, SUPPORT_RESEND | VIA_TIMEOUT);
        in.end();
        return new ProducerControllerImpl.Request<>(
            confirmed, upTo, (flags & SUPPORT_RESEND) != 0, (flags & VIA_TIMEOUT) != 0);
      }
      case "R" -> {
        long from = seqNr(in, "first sequence number to resend");
        if (from < 1) {
          throw new IllegalArgumentException(KIND + " asks for a resend from " + from + " (they count from 1)");
        }
        in.end();
        return new ProducerControllerImpl.Resend<>(from);
      }
      case "A" -> {
        long confirmed = seqNr(in, "confirmed sequence number");
        in.end();
        return new ProducerControllerImpl.Ack<>(confirmed);
      }
      case "C" -> {
        ActorRef<ConsumerController.Command<Object>> consumerController = ref(in, "consumer controller");
        in.end();
        return new ProducerController.RegisterConsumer<>(consumerController);
      }
      default -> throw new IllegalArgumentException("unknown reliable delivery manifest '" + manifest + "'");
    }
  }

  private static long seqNr(WireFrame.Reader in, String what) {
    long n = in.readLong(what);
    if (n < 0) {
      throw new IllegalArgumentException(KIND + "'s " + what + " is negative: " + n);
    }
    return n;
  }

  private static int flags(WireFrame.Reader in, int known) {
    int flags = in.readByte("flags") & 0xff;
    if ((flags & ~known) != 0) {
      throw new IllegalArgumentException(KIND + " has unknown flags " + Integer.toBinaryString(flags));
    }
    return flags;
  }

  private <T> ActorRef<T> ref(WireFrame.Reader in, String what) {
    String path = in.readString(what);
    try {
      return resolver().resolveActorRef(path);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(KIND + "'s " + what + " '" + path + "' is not an actor path: "
          + e.getMessage(), e);
    }
  }
}
