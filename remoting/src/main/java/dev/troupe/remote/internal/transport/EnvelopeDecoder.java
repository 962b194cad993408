package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorPath;
import dev.troupe.runtime.spi.InternalActorRef;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.function.Function;

/**
 * Decodes the frames of an accepted connection once its handshake is done ({@link Wire}): each
 * envelope into the connection's {@link InboundEnvelope} (through the connection's {@link
 * InboundTable}, which this handler owns), a sequenced system message into the same envelope with
 * its number, a traced user message into the same envelope with its trace context (an untraced
 * one is decoded as ever, with no check of its own), and each control frame into its {@link
 * Control} kind, passed on to the {@link InboundDispatcher}. The frame is released here. A frame
 * that breaks the protocol (an unknown ref code, a slot never filled, a truncated field, an unknown
 * control kind, a trace context above its bound) is passed on as a {@link Wire.ProtocolException}
 * through {@code exceptionCaught}, and nothing after it is decoded: the last handler closes the
 * connection.
 *
 * <p>Each envelope decoded is counted in the connection's {@link Traffic.Cell} (its bytes are
 * counted where they are read, by {@link Traffic.Bytes}).
 */
final class EnvelopeDecoder extends ChannelInboundHandlerAdapter {
  /** A control frame of the transport that an accepted connection reads. */
  enum Control {
    HEARTBEAT,
    HEARTBEAT_RESPONSE,
    LEAVING
  }

  private final InboundTable table = new InboundTable();
  private final InboundEnvelope envelope;
  private final Traffic.Cell traffic;
  private boolean broken;

  /** One that counts into a cell of its own, attached to no peer (tests). */
  EnvelopeDecoder(Function<ActorPath, InternalActorRef> resolve) {
    this(resolve, new Traffic.Cell());
  }

  /**
   * @param resolve turns a path that arrived into a ref (the provider's)
   * @param traffic the connection's counts
   */
  EnvelopeDecoder(Function<ActorPath, InternalActorRef> resolve, Traffic.Cell traffic) {
    this.envelope = new InboundEnvelope(resolve);
    this.traffic = traffic;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf frame)) {
      ctx.fireChannelRead(msg);
      return;
    }
    Object decoded;
    try {
      if (broken) {
        return; // the connection is closing: the rest of its bytes tell nothing
      }
      decoded = decode(frame);
      if (decoded == envelope) {
        traffic.messageReceived();
      }
    } catch (Wire.ProtocolException e) {
      broken = true;
      ctx.fireExceptionCaught(e);
      return;
    } finally {
      frame.release();
    }
    ctx.fireChannelRead(decoded);
  }

  private Object decode(ByteBuf frame) {
    if (!Wire.isControl(frame)) {
      Wire.decodeEnvelope(frame, table, envelope);
      return envelope;
    }
    int kind = Wire.decodeControl(frame);
    return switch (kind) {
      case Wire.SYSTEM -> {
        long seq = Wire.readVarLong(frame);
        if (seq <= 0) {
          throw new Wire.ProtocolException("system message number " + seq);
        }
        Wire.decodeEnvelope(frame, table, envelope);
        envelope.seq(seq);
        yield envelope;
      }
      case Wire.TRACED -> {
        String context = Wire.decodeTraceContext(frame);
        Wire.decodeEnvelope(frame, table, envelope);
        envelope.traceContext(context);
        yield envelope;
      }
      case Wire.HEARTBEAT -> Control.HEARTBEAT;
      case Wire.HEARTBEAT_RESPONSE -> Control.HEARTBEAT_RESPONSE;
      case Wire.LEAVING -> Control.LEAVING;
      default -> throw new Wire.ProtocolException("unknown control frame kind " + kind); // decodeControl knows no other
    };
  }
}
