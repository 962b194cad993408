package dev.troupe.actor.tests;

import static dev.troupe.actor.tests.RuntimeFixtures.inContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.actor.InvalidActorNameException;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Actor names, generated names, paths and addresses. */
class ActorNamesAndPathsTest {
  @RegisterExtension final ActorSystemExtension troupe = ActorSystemExtension.perMethod(RuntimeFixtures.CONFIG);

  static final class Noop extends UntypedActor {
    @Override
    public void onReceive(Object message) {}
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "$x", "a/b", "with space", "tab\t", "ünïcode", "名前", "#hash", "100%", "a?b"})
  void anInvalidNameIsAnInvalidActorNameException(String name, ActorSystem sys, TestKit kit) {
    assertThrows(InvalidActorNameException.class, () -> sys.actorOf(Props.create(Noop.class), name));
    // the same rule inside an actor
    ActorRef parent = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class));
    Object r = inContext(kit, parent, ctx -> ctx.actorOf(Props.create(Noop.class), name));
    assertTrue(r instanceof InvalidActorNameException, "child name [" + name + "] was accepted: " + r);
  }

  @Test
  void aNullNameIsRejected(ActorSystem sys) {
    assertThrows(InvalidActorNameException.class, () -> sys.actorOf(Props.create(Noop.class), null));
  }

  @Test
  void aDuplicateSiblingNameIsAnInvalidActorNameException(ActorSystem sys, TestKit kit) {
    sys.actorOf(Props.create(Noop.class), "taken");
    InvalidActorNameException e = assertThrows(InvalidActorNameException.class,
        () -> sys.actorOf(Props.create(Noop.class), "taken"));
    assertTrue(e.getMessage().contains("taken"), e.getMessage());
    ActorRef parent = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class));
    Object r = inContext(kit, parent, ctx -> {
      ctx.actorOf(Props.create(Noop.class), "kid");
      return ctx.actorOf(Props.create(Noop.class), "kid");
    });
    assertTrue(r instanceof InvalidActorNameException, String.valueOf(r));
    // the same name under another parent is fine
    Object other = inContext(kit, parent, ctx -> ctx.actorOf(Props.create(Noop.class), "taken"));
    assertTrue(other instanceof ActorRef, String.valueOf(other));
  }

  @Test
  void validNamesMayUseTheAllowedPunctuationAndEscapes(ActorSystem sys) {
    for (String n : List.of("a-b_c.d", "x:y@z", "%20", "a+b=c,d!e~f'g;h*i&j$k")) {
      assertEquals(n, sys.actorOf(Props.create(Noop.class), n).path().name());
    }
  }

  @Test
  void generatedNamesAreUniqueAndReserved(ActorSystem sys) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String n = sys.actorOf(Props.create(Noop.class)).path().name();
      assertTrue(n.startsWith("$"), n);
      assertTrue(names.add(n), "duplicate generated name " + n);
    }
  }

  @Test
  void pathsAreTroupeUrisWithElementsParentAndName(ActorSystem sys, TestKit kit) {
    ActorRef a = sys.actorOf(Props.create(RuntimeFixtures.ContextActor.class), "a");
    ActorRef b = (ActorRef) inContext(kit, a, ctx -> ctx.actorOf(Props.create(Noop.class), "b"));
    ActorPath p = b.path();
    assertEquals("troupe://" + sys.name() + "/user/a/b", p.toString());
    assertEquals("/user/a/b", p.toStringWithoutAddress());
    assertEquals(List.of("user", "a", "b"), p.elements());
    assertEquals("b", p.name());
    assertEquals(a.path(), p.parent());
    assertEquals("troupe://" + sys.name() + "/user", p.parent().parent().toString());
    assertEquals(p.root(), p.parent().parent().parent());
    assertEquals(p.root(), p.root().parent(), "the root is its own parent");
    assertEquals(3, p.depth());
    assertEquals(sys.address(), p.address());
    assertEquals(p, ActorPath.fromString(p.toString()));
    assertEquals(p.uid(), ActorPath.fromString(p.toSerializationFormat()).uid());
    assertEquals(sys.child("a"), a.path());
  }

  @Test
  void addressParseAcceptsLocalRemoteAndIpv6Addresses() {
    Address local = Address.parse("troupe://sys");
    assertEquals("sys", local.system());
    assertEquals(Optional.empty(), local.host());
    assertTrue(local.hasLocalScope());
    Address remote = Address.parse("troupe://sys@host.example:2552");
    assertEquals(Optional.of("host.example"), remote.host());
    assertEquals(Optional.of(2552), remote.port());
    assertTrue(remote.hasGlobalScope());
    assertEquals("troupe://sys@host.example:2552", remote.toString());
    Address v6 = Address.parse("troupe://sys@[::1]:2553");
    assertEquals(Optional.of("::1"), v6.host());
    assertEquals("troupe://sys@[::1]:2553", v6.toString());
    assertEquals(Address.remote("sys", "host.example", 2552), remote);
    assertEquals(Address.local("sys"), local);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sys", "akka://sys", "troupe://", "troupe://sys@host", "troupe://sys@host:notaport",
      "troupe://sys@host:70000", "troupe://sys@:2552", "troupe://sys/user/a", "troupe://bad name",
      "troupe://sys@[::1]2552", "://sys"})
  void addressParseRejectsMalformedInputNamingIt(String text) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Address.parse(text));
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }

  @Test
  void isValidPathElementMatchesTheNamingRules() {
    assertTrue(ActorPath.isValidPathElement("worker-1"));
    assertFalse(ActorPath.isValidPathElement("a b"));
    assertFalse(ActorPath.isValidPathElement("%2"));
    assertFalse(ActorPath.isValidPathElement(null));
  }
}
