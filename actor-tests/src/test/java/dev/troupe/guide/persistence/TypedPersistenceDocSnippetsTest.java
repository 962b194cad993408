package dev.troupe.guide.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.CommandHandlerBuilder;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.persistence.typed.javadsl.RetentionCriteria;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The typed block of {@code docs/persistence.md}, compiled and run: a shopping cart that refuses
 * items once checked out, and a new actor for the same cart that recovers its items.
 */
@Timeout(60)
class TypedPersistenceDocSnippetsTest {
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // tag::typed-cart[]
  public sealed interface Command {}
  public record AddItem(String item, ActorRef<List<String>> replyTo) implements Command {}
  public record Checkout(ActorRef<Boolean> replyTo) implements Command {}

  public sealed interface Event {}
  public record ItemAdded(String item) implements Event {}
  public record CheckedOut() implements Event {}

  public record Cart(List<String> items, boolean checkedOut) {
    Cart add(String item) {
      return new Cart(java.util.stream.Stream.concat(items.stream(), java.util.stream.Stream.of(item)).toList(), false);
    }
  }

  public static final class ShoppingCart extends EventSourcedBehavior<Command, Event, Cart> {
    public ShoppingCart(String cartId) {
      super(PersistenceId.of("ShoppingCart", cartId));
    }

    @Override
    public Cart emptyState() {
      return new Cart(List.of(), false);
    }

    @Override
    public CommandHandler<Command, Event, Cart> commandHandler() {
      CommandHandlerBuilder<Command, Event, Cart> b = newCommandHandlerBuilder();
      b.forState(Cart::checkedOut)                       // the first matching case wins
          .onCommand(AddItem.class, (cart, c) -> Effect().reply(c.replyTo(), cart.items()))
          .onCommand(Checkout.class, (cart, c) -> Effect().reply(c.replyTo(), false));
      b.forAnyState()
          .onCommand(AddItem.class, (cart, c) -> Effect().persist(new ItemAdded(c.item()))
              .thenReply(c.replyTo(), Cart::items))      // the state after the event
          .onCommand(Checkout.class, (cart, c) -> Effect().persist(new CheckedOut())
              .thenReply(c.replyTo(), after -> true));
      return b.build();
    }

    @Override
    public EventHandler<Cart, Event> eventHandler() {      // also applies replayed events
      return newEventHandlerBuilder().forAnyState()
          .onEvent(ItemAdded.class, (cart, e) -> cart.add(e.item()))
          .onEvent(CheckedOut.class, (cart, e) -> new Cart(cart.items(), true))
          .build();
    }

    @Override
    public RetentionCriteria retentionCriteria() {
      return RetentionCriteria.snapshotEvery(100, 2);   // recovery starts from the newest snapshot
    }
  }
  // end::typed-cart[]

  @Test
  void theCartPersistsRefusesAfterCheckoutAndRecovers() {
    TestProbe<List<String>> items = kit.createTestProbe();
    TestProbe<Boolean> done = kit.createTestProbe();
    ActorRef<Command> cart = kit.spawn(new ShoppingCart("c1"));
    cart.tell(new AddItem("tea", items.getRef()));
    items.expectMessage(List.of("tea"));
    cart.tell(new AddItem("milk", items.getRef()));
    items.expectMessage(List.of("tea", "milk"));
    cart.tell(new Checkout(done.getRef()));
    done.expectMessage(true);
    cart.tell(new AddItem("cake", items.getRef()));
    items.expectMessage(List.of("tea", "milk")); // checked out: not added
    kit.stop(cart);

    ActorRef<Command> again = kit.spawn(new ShoppingCart("c1"));
    again.tell(new Checkout(done.getRef()));
    assertEquals(false, done.receiveMessage(), "the recovered cart is checked out already");
  }
}
