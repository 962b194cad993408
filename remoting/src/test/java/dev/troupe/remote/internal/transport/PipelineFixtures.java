package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.Address;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.SystemMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/** What the pipeline handlers' tests share: frames built by hand, a recorder, doubles of the layers above. */
final class PipelineFixtures {
  static final Address SELF = Address.parse("troupe://victim@127.0.0.1:2552");
  static final Address PEER = Address.parse("troupe://peer@127.0.0.1:2553");
  static final long SELF_UID = 42;
  static final long PEER_UID = 7;

  private PipelineFixtures() {}

  static RateLimitedLog log() {
    return new RateLimitedLog(LoggerFactory.getLogger("dev.troupe.remote.PipelineTest"), 1, 1000);
  }

  /** A ref that is only a path (as a provider's remote ref is to the transport). */
  static class PathRef extends InternalActorRef {
    private final ActorPath path;

    PathRef(ActorPath path) {
      this.path = path;
    }

    @Override
    public RuntimeSystem system() {
      return null; // the pipeline never asks a ref for its system
    }

    @Override
    public ActorPath path() {
      return path;
    }

    @Override
    public void tell(Object message, ActorRef sender) {}

    @Override
    public void sendSystemMessage(SystemMessage message) {}

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean isLocal() {
      return false;
    }
  }

  /** Keeps what reaches the end of the pipeline: messages, exceptions and user events. */
  static final class Recorder extends ChannelInboundHandlerAdapter {
    final List<Object> reads = new ArrayList<>();
    final List<Throwable> errors = new ArrayList<>();
    final List<Object> events = new ArrayList<>();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof InboundEnvelope e) { // reused by the decoder: keep what it said now
        reads.add(e.recipient().path().toSerializationFormat() + "|" + (e.sender() == null ? "-" : e.sender().path().toSerializationFormat()) + "|" + e.serializerId() + "|"
            + e.manifest() + "|" + new String(e.bytes(), java.nio.charset.StandardCharsets.UTF_8) + "|" + e.seq());
      } else {
        reads.add(msg);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      errors.add(cause);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      events.add(evt);
    }
  }

  /** The node above, as the handshake handler sees it: accepts every peer unless told otherwise. */
  static final class Host implements InboundHost {
    final Peer peer = new Peer();
    String refuse;

    @Override
    public Address address() {
      return SELF;
    }

    @Override
    public long uid() {
      return SELF_UID;
    }

    @Override
    public InternalActorRef resolve(ActorPath path) {
      return new PathRef(path);
    }

    @Override
    public InboundPeer accept(Channel channel, Wire.Handshake handshake) {
      if (refuse != null) {
        throw new Wire.ProtocolException(refuse);
      }
      return peer;
    }
  }

  /** The peer of an accepted connection, as the dispatcher sees it. */
  static final class Peer implements InboundPeer {
    final List<String> delivered = new ArrayList<>();
    boolean owner = true;
    int leaving;
    int closed;
    long nextExpected = 1;

    @Override
    public boolean ownsControl(Channel channel) {
      return owner;
    }

    @Override
    public void message(InboundEnvelope e) {
      delivered.add(new String(e.bytes(), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public long systemMessage(InboundEnvelope e) {
      if (e.seq() == nextExpected) {
        nextExpected++;
        delivered.add("#" + e.seq() + " " + new String(e.bytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
      return nextExpected - 1;
    }

    @Override
    public void leaving() {
      leaving++;
    }

    @Override
    public void closed(Channel channel) {
      closed++;
    }
  }

  /** An envelope frame's body with its paths in full (ref code 1: remembered). */
  static ByteBuf envelope(String recipient, String payload) {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, Wire.REF_NEW);
    Wire.writeString(b, recipient);
    b.writeByte(Wire.REF_NONE); // no sender
    Wire.writeVarInt(b, Wire.zigZag(2));
    b.writeByte(Wire.REF_NONE); // no manifest
    b.writeBytes(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return b;
  }

  /** An envelope whose recipient is slot {@code slot} of the table. */
  static ByteBuf envelopeToSlot(int slot, String payload) {
    ByteBuf b = Unpooled.buffer();
    Wire.writeVarInt(b, Wire.REF_FIRST_ENTRY + slot);
    b.writeByte(Wire.REF_NONE);
    Wire.writeVarInt(b, Wire.zigZag(2));
    b.writeByte(Wire.REF_NONE);
    b.writeBytes(payload.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return b;
  }

  /** A system message's frame body: control prefix, number, envelope. */
  static ByteBuf system(long seq, String recipient, String payload) {
    ByteBuf b = Unpooled.buffer();
    b.writeByte(Wire.REF_NONE);
    b.writeByte(Wire.SYSTEM);
    Wire.writeVarLong(b, seq);
    b.writeBytes(envelope(recipient, payload));
    return b;
  }

  /** @return {@code body} behind its 4-byte length, as it crosses the wire */
  static ByteBuf framed(ByteBuf body) {
    ByteBuf b = Unpooled.buffer();
    b.writeInt(body.readableBytes());
    b.writeBytes(body);
    return b;
  }

  static ByteBuf handshake(Lane lane, Address origin, long uid, Address target) {
    return Wire.encodeHandshake(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT, new Wire.Handshake(lane, origin, uid, target));
  }

  static String path(String name) {
    return SELF + "/user/" + name + "#1";
  }
}
