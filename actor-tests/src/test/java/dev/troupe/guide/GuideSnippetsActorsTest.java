package dev.troupe.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorPath;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.pattern.Patterns;
import dev.troupe.testkit.ActorSystemExtension;
import dev.troupe.testkit.TestKit;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The guide's chapters "Actors and props" and "The hierarchy and paths", compiled and run. */
@ExtendWith(ActorSystemExtension.class)
class GuideSnippetsActorsTest {
  // tag::counter[]
  record Add(int amount) {}

  record Get() {}

  static final class Counter extends AbstractActor {
    private int total; // only this actor touches it: no locks, no volatile

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Add.class, add -> total += add.amount())
          .match(Get.class, get -> getSender().tell(total, getSelf()))
          .build();
    }
  }
  // end::counter[]

  // tag::untyped[]
  static final class Echo extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof String text) {
        getSender().tell(text, getSelf());
      } else {
        unhandled(message);
      }
    }
  }
  // end::untyped[]

  // tag::greeter[]
  static final class Greeter extends AbstractActor {
    private final String greeting;

    Greeter(String greeting) {
      this.greeting = greeting;
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(String.class, name -> getSender().tell(greeting + ", " + name, getSelf()))
          .build();
    }
  }
  // end::greeter[]

  // tag::shop[]
  static final class Shop extends AbstractActor {
    @Override
    public void preStart() {
      getContext().actorOf(Props.create(Counter.class), "visits");
      getContext().actorOf(Props.create(Counter.class), "sales");
    }

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .match(Add.class, sale -> getContext().findChild("sales").ifPresent(c -> c.forward(sale, getContext())))
          .build();
    }
  }
  // end::shop[]

  @Test
  void aSystemCountsWhatItIsTold() throws Exception {
    // tag::system[]
    ActorSystem system = ActorSystem.create("shop");
    ActorRef counter = system.actorOf(Props.create(Counter.class), "counter");
    counter.tell(new Add(2), ActorRef.noSender());      // fire and forget
    counter.tell(new Add(3), ActorRef.noSender());
    CompletionStage<Object> total = Patterns.ask(counter, new Get(), Duration.ofSeconds(3));
    Object five = total.toCompletableFuture().get();    // 5: one sender's messages arrive in order
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
    // end::system[]
    assertEquals(5, five);
    assertEquals("troupe://shop/user/counter", counter.path().toString());
  }

  @Test
  void propsFindTheConstructorOrTakeAFactory(ActorSystem system, TestKit kit) {
    // tag::props[]
    Props byReflection = Props.create(Greeter.class, "Hello");             // finds Greeter(String)
    Props byFactory = Props.create(Greeter.class, () -> new Greeter("Hi")); // no reflection at all
    ActorRef hello = system.actorOf(byReflection, "hello");
    ActorRef hi = system.actorOf(byFactory.withMailbox("bounded-mailbox"), "hi");
    // end::props[]
    kit.send(hello, "Ann");
    kit.expectMsg("Hello, Ann");
    kit.send(hi, "Bob");
    kit.expectMsg("Hi, Bob");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Props.create(Greeter.class, 42));
    assertTrue(e.getMessage().contains("its constructors: (java.lang.String)"), e.getMessage());

    ActorRef echo = system.actorOf(Props.create(Echo.class));
    kit.send(echo, "ping");
    kit.expectMsg("ping");
  }

  @Test
  void childrenLiveUnderTheirParentsPath(ActorSystem system, TestKit kit) throws Exception {
    ActorRef shop = system.actorOf(Props.create(Shop.class), "shop");
    kit.awaitAssert(() -> kit.awaitResult(system.actorSelection("/user/shop/visits").resolveOne(Duration.ofSeconds(3))));
    // the shop's preStart has run: its children exist
    // tag::paths[]
    ActorPath visits = shop.path().child("visits");    // troupe://<system>/user/shop/visits
    system.actorSelection(visits).tell(new Add(1), ActorRef.noSender());
    system.actorSelection("/user/shop/*").tell(new Add(10), ActorRef.noSender()); // both children
    shop.tell(new Add(100), ActorRef.noSender());                               // to sales
    ActorRef sales = system.actorSelection("/user/shop/sales")
        .resolveOne(Duration.ofSeconds(3)).toCompletableFuture().get();
    // end::paths[]
    assertEquals("troupe://" + system.name() + "/user/shop/visits", visits.toString());
    kit.awaitAssert(() -> {
      assertEquals(110, kit.awaitResult(Patterns.ask(sales, new Get(), Duration.ofSeconds(3))));
      return null;
    });
    ActorRef visitsRef = system.actorSelection(visits).resolveOne(Duration.ofSeconds(3)).toCompletableFuture().get();
    kit.awaitAssert(() -> {
      assertEquals(11, kit.awaitResult(Patterns.ask(visitsRef, new Get(), Duration.ofSeconds(3))));
      return null;
    });
  }
}
