package dev.troupe.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.PoisonPill;
import dev.troupe.actor.Props;
import dev.troupe.actor.WrappedMessage;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.Serialized;
import dev.troupe.serialization.Serializer;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Untrusted mode looks inside {@link WrappedMessage}s: a wrapper (here a test's own, with a
 * serializer of its own) that carries an ordinary message passes, one that carries PoisonPill is
 * refused as PoisonPill is on its own, and one wrapped deeper than the bound is refused unread
 * further; the actor lives on.
 */
public class UntrustedWrappedMessageTest {
  /** A message that carries another. */
  public record Wrap(Object message) implements WrappedMessage {}

  /** Writes a {@link Wrap}: the carried message's serializer id, manifest and bytes. */
  public static final class WrapSerializer implements Serializer {
    private final ActorSystem system;

    /** @param system the system whose registry writes the carried message */
    public WrapSerializer(ActorSystem system) {
      this.system = system;
    }

    @Override
    public int identifier() {
      return 9_001;
    }

    @Override
    public String manifest(Object o) {
      return "";
    }

    @Override
    public byte[] toBinary(Object o) {
      Serialized inner = Serialization.get(system).serialize(((Wrap) o).message());
      byte[] manifest = inner.manifest().getBytes(StandardCharsets.UTF_8);
      return ByteBuffer.allocate(8 + manifest.length + inner.bytes().length).putInt(inner.serializerId())
          .putInt(manifest.length).put(manifest).put(inner.bytes()).array();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
      ByteBuffer in = ByteBuffer.wrap(bytes);
      int id = in.getInt();
      byte[] m = new byte[in.getInt()];
      in.get(m);
      byte[] rest = new byte[in.remaining()];
      in.get(rest);
      return new Wrap(Serialization.get(system).deserialize(id, new String(m, StandardCharsets.UTF_8), rest));
    }
  }

  @RegisterExtension
  static final ActorSystemExtension TROUPE = ActorSystemExtension.perClass(Nodes.REMOTE
      + "troupe.serialization.serializers { test-wrap = \"" + WrapSerializer.class.getName() + "\" }\n"
      + "troupe.serialization.bindings { \"" + Wrap.class.getName() + "\" = test-wrap }\n");

  private static Object wrapped(int depth, Object message) {
    Object m = message;
    for (int i = 0; i < depth; i++) {
      m = new Wrap(m);
    }
    return m;
  }

  @Test
  void wrappersOfOrdinaryMessagesPassAndWhatTheyCarryIsCheckedAsOnItsOwn() {
    ActorSystem guarded = TROUPE.createSystem(
        "troupe.remote.untrusted-mode = on\ntroupe.remote.trusted-selection-paths = [\"/user/guarded\"]\n");
    guarded.actorOf(Props.create(RemoteBadInputTest.Echo.class), "guarded");
    TestKit onGuarded = new TestKit(guarded);
    guarded.eventStream().subscribe(onGuarded.getRef(), Dropped.class);
    ActorSystem a = TROUPE.system();
    TestKit probe = new TestKit(a);
    ActorRef remote = Nodes.lookup(a, guarded, "/user/guarded");

    remote.tell(wrapped(3, "hello"), probe.getRef());
    assertEquals("other:Wrap", probe.expectMsgClass(Nodes.WAIT, String.class), "a wrapped string passes");
    remote.tell(wrapped(16, "deep"), probe.getRef());
    assertEquals("other:Wrap", probe.expectMsgClass(Nodes.WAIT, String.class), "16 deep passes");

    remote.tell(wrapped(3, PoisonPill.getInstance()), probe.getRef());
    Dropped pill = onGuarded.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(pill.reason().contains("untrusted-mode") && pill.reason().contains("PoisonPill"), pill.reason());
    assertInstanceOf(Wrap.class, pill.message());

    remote.tell(wrapped(17, "deeper"), probe.getRef());
    Dropped deep = onGuarded.expectMsgClass(Nodes.WAIT, Dropped.class);
    assertTrue(deep.reason().contains("wrapped more than 16 deep"), deep.reason());

    remote.tell("still here", probe.getRef());
    assertEquals("echo:still here", probe.expectMsgClass(Nodes.WAIT, String.class), "the actor lives on");
  }
}
