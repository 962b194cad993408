package dev.troupe.bench.savina;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.SavinaMessages.Change;
import dev.troupe.bench.common.SavinaMessages.Colour;
import dev.troupe.bench.common.SavinaMessages.Fade;
import dev.troupe.bench.common.SavinaMessages.HostMeetings;
import dev.troupe.bench.common.SavinaMessages.Meet;
import dev.troupe.bench.common.SavinaMessages.MeetingCount;
import dev.troupe.bench.common.SavinaMessages.StartMeeting;
import dev.troupe.bench.common.TroupeSystems;

/** Troupe side of {@code Chameneos}; mirrors {@link PekkoChameneos} line by line. */
public final class TroupeChameneos implements SavinaDriver {
  private ActorSystem system;
  private ActorRef mall;

  @Override
  public void setup(int size) {
    system =
        TroupeSystems.start(
            Names.unique("chameneos"),
            Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    mall =
        system.actorOf(
            Props.create(Mall.class, () -> new Mall(size)).withDispatcher(Dispatchers.ID));
  }

  @Override
  public void runIteration(int work) {
    Completion done = new Completion(1);
    mall.tell(new HostMeetings(done, work), ActorRef.noSender());
    done.await("troupe chameneos");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Mall extends UntypedActor {
    private final ActorRef[] chameneos;
    private Completion done;
    private int meetings;
    private int meetingsLeft;
    private ActorRef waiting;
    private int faded;
    private long meetingsReported;

    Mall(int size) {
      chameneos = new ActorRef[size];
    }

    @Override
    public void preStart() {
      for (int i = 0; i < chameneos.length; i++) {
        Colour initial = Colour.values()[i % 3];
        chameneos[i] =
            getContext()
                .actorOf(
                    Props.create(Chameneo.class, () -> new Chameneo(initial))
                        .withDispatcher(Dispatchers.ID));
      }
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Meet m) {
        if (meetingsLeft > 0) {
          if (waiting == null) {
            waiting = getSender();
          } else {
            meetingsLeft--;
            waiting.tell(m, getSender());
            waiting = null;
          }
        } else {
          getSender().tell(Fade.INSTANCE, getSelf());
        }
      } else if (message instanceof MeetingCount c) {
        meetingsReported += c.meetings();
        if (++faded == chameneos.length) {
          if (meetingsReported == 2L * meetings) {
            done.done();
          } else {
            done.fail(meetingsReported + " meetings reported, expected " + 2L * meetings);
          }
        }
      } else if (message instanceof HostMeetings h) {
        done = h.done();
        meetings = h.meetings();
        meetingsLeft = meetings;
        waiting = null;
        faded = 0;
        meetingsReported = 0;
        for (ActorRef c : chameneos) {
          c.tell(StartMeeting.INSTANCE, getSelf());
        }
      } else {
        unhandled(message);
      }
    }
  }

  static final class Chameneo extends UntypedActor {
    private final Colour initial;
    private Colour colour;
    private int meetings;
    private ActorRef mall;

    Chameneo(Colour initial) {
      this.initial = initial;
    }

    @Override
    public void preStart() {
      mall = getContext().getParent();
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Meet m) {
        colour = colour.complement(m.colour());
        meetings++;
        getSender().tell(new Change(colour), getSelf());
        mall.tell(new Meet(colour), getSelf());
      } else if (message instanceof Change c) {
        colour = c.colour();
        meetings++;
        mall.tell(new Meet(colour), getSelf());
      } else if (message == StartMeeting.INSTANCE) {
        colour = initial;
        meetings = 0;
        mall.tell(new Meet(colour), getSelf());
      } else if (message == Fade.INSTANCE) {
        getSender().tell(new MeetingCount(meetings), getSelf());
      } else {
        unhandled(message);
      }
    }
  }
}
