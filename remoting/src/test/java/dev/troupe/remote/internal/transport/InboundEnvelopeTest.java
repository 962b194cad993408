package dev.troupe.remote.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.ActorPath;
import dev.troupe.serialization.Serialized;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The recipient's path hash an {@link InboundEnvelope} gives for the inbound lanes: the hash of
 * the resolved recipient's path, whether the connection's string table keeps the ref (and the hash
 * with it) or resolves the path anew for every frame.
 */
class InboundEnvelopeTest {
  private static final String REMOTE = "troupe://me@127.0.0.1:2552/user/a#5";
  private static final String LOCAL = "troupe://me@127.0.0.1:2552/user/b";

  /** A local ref: without a uid the table resolves its path anew every time. */
  private static final class LocalRef extends PipelineFixtures.PathRef {
    LocalRef(ActorPath path) {
      super(path);
    }

    @Override
    public boolean isLocal() {
      return true;
    }
  }

  @Test
  void theRecipientsPathHashIsThatOfTheResolvedRefsPathWhetherKeptOrNot() {
    EmbeddedChannel out = new EmbeddedChannel(new EnvelopeEncoder(1024, new Drops(null, PipelineFixtures.log(), (r, w) -> false)));
    for (String to : List.of(REMOTE, REMOTE, LOCAL, LOCAL, REMOTE)) {
      out.writeOutbound(new OutboundEnvelope(
          new PipelineFixtures.PathRef(ActorPath.fromString(to)), to, null, "m", new Serialized(2, "", "m".getBytes(StandardCharsets.UTF_8))));
    }
    List<Integer> hashes = new ArrayList<>();
    List<Integer> expected = new ArrayList<>();
    EmbeddedChannel in =
        new EmbeddedChannel(
            NettyTransport.frameDecoder(1024),
            new EnvelopeDecoder(p -> p.uid() == ActorPath.UNDEFINED_UID ? new LocalRef(p) : new PipelineFixtures.PathRef(p)),
            new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                InboundEnvelope e = (InboundEnvelope) msg;
                hashes.add(e.recipientPathHash());
                expected.add(e.recipient().path().hashCode());
              }
            });
    for (Object frame; (frame = out.readOutbound()) != null; ) {
      in.writeInbound(frame);
    }
    assertEquals(5, hashes.size(), "every envelope read");
    assertEquals(expected, hashes);
    assertEquals(ActorPath.fromString(REMOTE).hashCode(), hashes.get(4), "the kept ref's hash, later too");
    assertEquals(ActorPath.fromString(LOCAL).hashCode(), hashes.get(3), "a ref resolved anew: its path's hash");
    in.finishAndReleaseAll();
    out.finishAndReleaseAll();
  }
}
