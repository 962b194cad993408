package dev.troupe.remote.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorInitializationException;
import dev.troupe.actor.ActorKilledException;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.DeathPactException;
import dev.troupe.runtime.spi.RuntimeSystem;
import dev.troupe.runtime.spi.InternalActorRef;
import dev.troupe.runtime.spi.SystemMessages;
import dev.troupe.remote.internal.DeploymentMessages.DeployAck;
import dev.troupe.remote.internal.DeploymentMessages.DeployRefused;
import dev.troupe.remote.internal.DeploymentMessages.DeployRequest;
import dev.troupe.serialization.RemoteFailure;
import dev.troupe.serialization.Serialization;
import dev.troupe.serialization.SerializationException;
import dev.troupe.serialization.Serialized;
import dev.troupe.testkit.ActorSystemExtension;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The wire form of deployment and supervision messages (identifier 7). */
class DeploymentSerializerTest {
  @RegisterExtension
  static final ActorSystemExtension TROUPE =
      ActorSystemExtension.perClass(
          "troupe.actor.provider = remote\ntroupe.remote.canonical.port = 0\n");

  private static ActorSystem system() {
    return TROUPE.system();
  }

  private static Serialization registry() {
    return Serialization.get(system());
  }

  private static Object roundTrip(Object o) {
    Serialized s = registry().serialize(o);
    assertEquals(7, s.serializerId(), "bound to the deployment serializer: " + o);
    return registry().deserialize(s.serializerId(), s.manifest(), s.bytes());
  }

  private static InternalActorRef elsewhere(String path) {
    return ((RuntimeSystem) system()).provider().resolveActorRef(ActorPath.fromString(path));
  }

  @Test
  void aRequestKeepsItsArgumentsAsTheirSerializersWroteThem() {
    ActorPath path = ActorPath.fromString("troupe://t@127.0.0.1:1/remote/o@127.0.0.1:2/user/p/c#42");
    InternalActorRef parent = elsewhere("troupe://o@127.0.0.1:2/user/p#7");
    Serialized arg = new Serialized(4711, "m", new byte[] {1, 2, 3});
    DeployRequest r =
        new DeployRequest(path, parent, "com.example.Worker", Arrays.asList(arg, null), "my-dispatcher", null);

    DeployRequest back = (DeployRequest) roundTrip(r);

    assertEquals(path, back.path());
    assertEquals(42, back.path().uid());
    assertEquals(parent, back.parent());
    assertEquals("com.example.Worker", back.className());
    assertEquals(2, back.args().size());
    assertEquals(4711, back.args().get(0).serializerId(), "no serializer 4711 here: never asked to read it");
    assertArrayEquals(new byte[] {1, 2, 3}, back.args().get(0).bytes());
    assertNull(back.args().get(1));
    assertEquals("my-dispatcher", back.dispatcher());
    assertNull(back.mailbox());
  }

  @Test
  void answersRoundTrip() {
    ActorPath path = ActorPath.fromString("troupe://t@127.0.0.1:1/remote/o@127.0.0.1:2/user/c#5");
    assertEquals(new DeployAck(path), roundTrip(new DeployAck(path)));
    InternalActorRef parent = elsewhere("troupe://o@127.0.0.1:2/user#1");
    assertEquals(new DeployRefused(path, parent, "not allowed"), roundTrip(new DeployRefused(path, parent, "not allowed")));
  }

  @Test
  void failuresCrossAsClassNamesExceptTroupesOwnWhichTheDefaultStrategyStops() {
    InternalActorRef child = elsewhere("troupe://t@127.0.0.1:1/remote/o@127.0.0.1:2/user/c#5");

    SystemMessages.Failed f =
        (SystemMessages.Failed) roundTrip(new SystemMessages.Failed(child, new IllegalStateException("boom"), 5));
    assertEquals(child, f.child());
    assertEquals(5, f.uid());
    RemoteFailure rf = assertInstanceOf(RemoteFailure.class, f.cause());
    assertEquals("java.lang.IllegalStateException", rf.originalClassName());
    assertEquals("boom", rf.getMessage());

    Throwable init =
        ((SystemMessages.Failed) roundTrip(new SystemMessages.Failed(
                child, new ActorInitializationException(null, "ctor", new RuntimeException("inner")), 5)))
            .cause();
    assertInstanceOf(ActorInitializationException.class, init);
    assertEquals("ctor", init.getMessage());
    assertEquals("java.lang.RuntimeException", ((RemoteFailure) init.getCause()).originalClassName());

    Throwable killed = ((SystemMessages.Failed) roundTrip(new SystemMessages.Failed(child, new ActorKilledException("Kill"), 5))).cause();
    assertInstanceOf(ActorKilledException.class, killed);

    Throwable pact = ((SystemMessages.Failed) roundTrip(new SystemMessages.Failed(child, new DeathPactException(child), 5))).cause();
    assertEquals(child, assertInstanceOf(DeathPactException.class, pact).getDeadActor());
  }

  @Test
  void directivesRoundTrip() {
    assertInstanceOf(SystemMessages.Suspend.class, roundTrip(new SystemMessages.Suspend()));
    assertNull(((SystemMessages.Resume) roundTrip(new SystemMessages.Resume(null))).cause());
    SystemMessages.Recreate r = (SystemMessages.Recreate) roundTrip(new SystemMessages.Recreate(new ArithmeticException("x")));
    assertEquals("java.lang.ArithmeticException", ((RemoteFailure) r.cause()).originalClassName());
  }

  @Test
  void truncatedOrUnknownInputIsRefusedWithAReason() {
    Serialized s =
        registry().serialize(new DeployAck(ActorPath.fromString("troupe://t@127.0.0.1:1/remote/o@127.0.0.1:2/user/c#5")));
    byte[] cut = Arrays.copyOf(s.bytes(), s.bytes().length - 3);
    SerializationException e = assertThrows(SerializationException.class, () -> registry().deserialize(7, "A", cut));
    assertTrue(e.getMessage().contains("malformed"), e.getMessage());
    for (String manifest : List.of("C", "R", "F", "M", "E")) {
      assertThrows(SerializationException.class, () -> registry().deserialize(7, manifest, new byte[] {9, 9}));
    }
    SerializationException unknown = assertThrows(SerializationException.class, () -> registry().deserialize(7, "Z", new byte[0]));
    assertTrue(unknown.getMessage().contains("unknown manifest 'Z'"), unknown.getMessage());
  }
}
