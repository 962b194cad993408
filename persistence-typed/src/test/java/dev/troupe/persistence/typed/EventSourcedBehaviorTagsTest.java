package dev.troupe.persistence.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.persistence.Persistence;
import dev.troupe.persistence.spi.TaggedRepr;
import dev.troupe.persistence.typed.javadsl.CommandHandler;
import dev.troupe.persistence.typed.javadsl.EventHandler;
import dev.troupe.persistence.typed.javadsl.EventSourcedBehavior;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code tagsFor}: the tags each event is stored with, as the journal's index of tags sees them. */
class EventSourcedBehaviorTagsTest {
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  record Add(int n, ActorRef<Integer> replyTo) {}

  record Added(int n) {}

  /** A sum whose events are tagged "even" or "odd", and all "sum". */
  static final class TaggedSum extends EventSourcedBehavior<Add, Added, Integer> {
    TaggedSum(String id) {
      super(PersistenceId.of("TaggedSum", id));
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandler<Add, Added, Integer> commandHandler() {
      return (total, c) -> Effect().persist(new Added(c.n())).thenReply(c.replyTo(), t -> t);
    }

    @Override
    public EventHandler<Integer, Added> eventHandler() {
      return (total, e) -> total + e.n();
    }

    @Override
    public Set<String> tagsFor(Added event) {
      return Set.of(event.n() % 2 == 0 ? "even" : "odd", "sum");
    }
  }

  private List<TaggedRepr> byTag(String tag) throws Exception {
    List<TaggedRepr> got = new ArrayList<>();
    Persistence.get(Adapter.toClassic(kit.system())).journalFor("")
        .eventsByTag(tag, 0, 100, got::add).toCompletableFuture().get(10, TimeUnit.SECONDS);
    return got;
  }

  @Test
  void eachEventIsStoredWithTheTagsItsBehaviourGivesIt() throws Exception {
    ActorRef<Add> a = kit.spawn(new TaggedSum("a"));
    ActorRef<Add> b = kit.spawn(new TaggedSum("b"));
    TestProbe<Integer> replies = kit.createTestProbe();
    a.tell(new Add(1, replies.getRef()));
    replies.expectMessage(1);
    b.tell(new Add(2, replies.getRef()));
    replies.expectMessage(2);
    a.tell(new Add(4, replies.getRef()));
    replies.expectMessage(5);

    assertEquals(List.of(new Added(2), new Added(4)), byTag("even").stream().map(t -> t.event().payload()).toList());
    assertEquals(List.of("TaggedSum|b", "TaggedSum|a"), byTag("even").stream().map(t -> t.event().persistenceId()).toList());
    assertEquals(List.of(new Added(1)), byTag("odd").stream().map(t -> t.event().payload()).toList());
    List<TaggedRepr> all = byTag("sum");
    assertEquals(List.of(1L, 2L, 3L), all.stream().map(TaggedRepr::offset).toList());
    assertTrue(all.get(0).event().tags().containsAll(Set.of("odd", "sum")));
  }
}
