package dev.troupe.guide.persistence;

import dev.troupe.actor.typed.ActorRef;
import dev.troupe.persistence.typed.PersistenceId;
import dev.troupe.persistence.typed.state.javadsl.CommandHandler;
import dev.troupe.persistence.typed.state.javadsl.DurableStateBehavior;
import dev.troupe.testkit.typed.ActorTestKit;
import dev.troupe.testkit.typed.TestProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The "Durable state" block of {@code docs/persistence.md}, compiled and run: a user profile that
 * stores its whole state on each change, a new actor for the same user that gets it back, and a
 * delete that empties it.
 */
@Timeout(60)
class DurableStateDocSnippetsTest {
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  // tag::durable-state[]
  public sealed interface Command {}
  public record ChangeEmail(String email, ActorRef<Profile> replyTo) implements Command {}
  public record GetProfile(ActorRef<Profile> replyTo) implements Command {}
  public record Forget(ActorRef<Profile> replyTo) implements Command {}

  public record Profile(String email, int changes) {}   // the whole state, stored as it is

  public static final class UserProfile extends DurableStateBehavior<Command, Profile> {
    public UserProfile(String userId) {
      super(PersistenceId.of("UserProfile", userId));
    }

    @Override
    public Profile emptyState() {                          // when nothing is stored
      return new Profile("", 0);
    }

    @Override
    public CommandHandler<Command, Profile> commandHandler() {
      return newCommandHandlerBuilder().forAnyState()
          .onCommand(ChangeEmail.class, (profile, c) -> c.email().equals(profile.email())
              ? Effect().reply(c.replyTo(), profile)      // nothing to store
              : Effect().persist(new Profile(c.email(), profile.changes() + 1))
                  .thenReply(c.replyTo(), after -> after)) // the state once stored
          .onCommand(GetProfile.class, (profile, c) -> Effect().reply(c.replyTo(), profile))
          .onCommand(Forget.class, c -> Effect().delete()  // back to emptyState()
              .thenReply(c.replyTo(), after -> after))
          .build();
    }
  }
  // end::durable-state[]

  @Test
  void theProfileIsStoredGotBackByANewActorAndForgotten() {
    TestProbe<Profile> profiles = kit.createTestProbe();
    ActorRef<Command> p = kit.spawn(new UserProfile("u1"));
    p.tell(new ChangeEmail("ann@example.com", profiles.getRef()));
    profiles.expectMessage(new Profile("ann@example.com", 1));
    p.tell(new ChangeEmail("ann@example.com", profiles.getRef()));
    profiles.expectMessage(new Profile("ann@example.com", 1));
    p.tell(new ChangeEmail("ann@example.org", profiles.getRef()));
    profiles.expectMessage(new Profile("ann@example.org", 2));
    kit.stop(p);

    ActorRef<Command> again = kit.spawn(new UserProfile("u1"));
    again.tell(new GetProfile(profiles.getRef()));
    profiles.expectMessage(new Profile("ann@example.org", 2));
    again.tell(new Forget(profiles.getRef()));
    profiles.expectMessage(new Profile("", 0));
    kit.stop(again);

    ActorRef<Command> forgotten = kit.spawn(new UserProfile("u1"));
    forgotten.tell(new GetProfile(profiles.getRef()));
    profiles.expectMessage(new Profile("", 0));
  }
}
