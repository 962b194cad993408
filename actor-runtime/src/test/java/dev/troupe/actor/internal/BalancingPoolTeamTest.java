package dev.troupe.actor.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.troupe.actor.AbstractActor;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.ConfigurationException;
import dev.troupe.actor.Props;
import dev.troupe.actor.internal.dispatch.BalancingDispatcher;
import dev.troupe.actor.internal.dispatch.Dispatcher;
import dev.troupe.pattern.Patterns;
import dev.troupe.routing.ActorRefRoutee;
import dev.troupe.routing.BalancingPool;
import dev.troupe.routing.GetRoutees;
import dev.troupe.routing.Routee;
import dev.troupe.routing.Routees;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Where a BalancingPool's routees run: a team on their dispatcher's threads, released at stop. */
class BalancingPoolTeamTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ActorSystemImpl system =
      (ActorSystemImpl) ActorSystem.create("balancingteam", ConfigFactory.parseString("""
          work-dispatcher {
            executor = thread-pool-executor
            thread-pool-executor { core-pool-size-min = 2, core-pool-size-max = 2 }
          }
          pinned-dispatcher { type = PinnedDispatcher }
          team-dispatcher { type = BalancingDispatcher }
          """));

  @AfterEach
  void terminate() throws Exception {
    system.terminate().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Answers "where" with its thread's name. */
  static final class Where extends AbstractActor {
    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("where", m -> getSender().tell(Thread.currentThread().getName(), getSelf()))
          .build();
    }
  }

  private Object ask(ActorRef ref, Object message) throws Exception {
    return Patterns.ask(ref, message, WAIT).toCompletableFuture().get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }

  private List<ActorRef> routees(ActorRef router) throws Exception {
    List<ActorRef> refs = new ArrayList<>();
    for (Routee r : ((Routees) ask(router, GetRoutees.getInstance())).routees()) {
      refs.add(((ActorRefRoutee) r).ref());
    }
    return refs;
  }

  private List<BalancingDispatcher> teams() {
    List<BalancingDispatcher> teams = new ArrayList<>();
    for (Dispatcher d : system.dispatchers.all()) {
      if (d instanceof BalancingDispatcher b) {
        teams.add(b);
      }
    }
    return teams;
  }

  @Test
  void theRouteesShareATeamOnTheirDispatchersThreadsThatIsReleasedWhenThePoolStops() throws Exception {
    Dispatcher work = system.dispatchers.lookup("work-dispatcher");
    ActorRef pool = system.actorOf(
        Props.create(Where.class).withDispatcher("work-dispatcher").withRouter(new BalancingPool(3)), "pool");
    List<ActorRef> routees = routees(pool);
    assertEquals(3, routees.size());

    List<BalancingDispatcher> teams = teams();
    assertEquals(1, teams.size(), "one team for the pool: " + system.dispatchers.all());
    BalancingDispatcher team = teams.get(0);
    assertSame(work.executor(), team.executor(), "the team runs on the routees' dispatcher's threads");
    for (ActorRef r : routees) {
      assertSame(team, RoutedActorRef.mailboxOf(r).dispatcher(), r + " is not on the team");
    }
    String thread = (String) ask(pool, "where");
    assertTrue(thread.startsWith(system.name() + "-work-dispatcher"), "ran on " + thread);

    assertTrue(Patterns.gracefulStop(pool, WAIT).toCompletableFuture().get(WAIT.toSeconds() + 5, TimeUnit.SECONDS));
    // The router's postStop releases the team before its watchers (gracefulStop) hear of the stop.
    assertTrue(teams().isEmpty(), "the stopped pool's team is still registered: " + system.dispatchers.all());
    assertFalse(work.executor().isShutdown(), "releasing the team must leave the borrowed threads running");
    ActorRef other = system.actorOf(Props.create(Where.class).withDispatcher("work-dispatcher"));
    assertTrue(((String) ask(other, "where")).startsWith(system.name() + "-work-dispatcher"));
  }

  /**
   * Owns a balancing pool named "again": "start" creates it and answers its ref; "restart" stops it
   * and, when its Terminated arrives (the name is free by then: this cell processed the child's
   * termination first), creates it again under the same name and answers the new ref.
   */
  static final class PoolOwner extends AbstractActor {
    private final Props pool = Props.create(Where.class).withRouter(new BalancingPool(2));
    private ActorRef child;
    private ActorRef replyTo;

    @Override
    public Receive createReceive() {
      return receiveBuilder()
          .matchEquals("start", m -> {
            child = getContext().watch(getContext().actorOf(pool, "again"));
            getSender().tell(child, getSelf());
          })
          .matchEquals("restart", m -> {
            replyTo = getSender();
            getContext().stop(child);
          })
          .match(dev.troupe.actor.Terminated.class, t -> {
            child = getContext().watch(getContext().actorOf(pool, "again"));
            replyTo.tell(child, getSelf());
          })
          .build();
    }
  }

  @Test
  void twoPoolsAtTheSamePathOneAfterTheOtherGetTeamsOfTheirOwn() throws Exception {
    ActorRef owner = system.actorOf(Props.create(PoolOwner.class, PoolOwner::new));
    ActorRef first = (ActorRef) ask(owner, "start");
    Dispatcher firstTeam = RoutedActorRef.mailboxOf(routees(first).get(0)).dispatcher();
    ActorRef second = (ActorRef) ask(owner, "restart");
    assertEquals(first.path(), second.path(), "the same path");
    Dispatcher secondTeam = RoutedActorRef.mailboxOf(routees(second).get(0)).dispatcher();
    assertTrue(firstTeam != secondTeam, "the new pool joined the stopped pool's team");
    assertEquals(List.of(secondTeam), teams(), "the stopped pool's team is still registered");
    assertTrue(((String) ask(second, "where")).startsWith(system.name() + "-troupe.actor.default-dispatcher"));
  }

  @Test
  void routeesOnAConfiguredBalancingDispatcherJoinThatTeam() throws Exception {
    Dispatcher configured = system.dispatchers.lookup("team-dispatcher");
    ActorRef pool = system.actorOf(
        Props.create(Where.class).withDispatcher("team-dispatcher").withRouter(new BalancingPool(2)));
    for (ActorRef r : routees(pool)) {
      assertSame(configured, RoutedActorRef.mailboxOf(r).dispatcher());
    }
    assertEquals(List.of(configured), teams(), "no extra team");
    assertTrue(Patterns.gracefulStop(pool, WAIT).toCompletableFuture().get(WAIT.toSeconds() + 5, TimeUnit.SECONDS));
    assertEquals(List.of(configured), teams(), "a configured dispatcher is not the pool's to release");
  }

  @Test
  void routeesOnAPinnedDispatcherAreRejectedNamingTheDispatcher() {
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> system.actorOf(
        Props.create(Where.class).withDispatcher("pinned-dispatcher").withRouter(new BalancingPool(2))));
    assertTrue(e.getMessage().contains("pinned-dispatcher") && e.getMessage().contains("PinnedDispatcher"),
        e.getMessage());
    assertTrue(teams().isEmpty(), "no team left behind: " + system.dispatchers.all());
  }

  @Test
  void aPoolThatFailsToStartLeavesNoTeamBehind() {
    ConfigurationException e = assertThrows(ConfigurationException.class, () -> system.actorOf(
        Props.create(Where.class).withRouter(new BalancingPool(2).withRouterDispatcher("no-such-dispatcher"))));
    assertTrue(e.getMessage().contains("no-such-dispatcher"), e.getMessage());
    assertTrue(teams().isEmpty(), "a team left behind: " + system.dispatchers.all());
  }
}
