package dev.troupe.cluster.internal.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.stack.Protocol;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link SuspicionTap} below a stand-in for GMS that records what comes up: a confirmed suspicion
 * of a member heard while it was being verified goes neither to GMS nor to the engine; the others
 * pass as before.
 */
class SuspicionTapTest {
  private final Address heard = UUID.randomUUID();
  private final Address silent = UUID.randomUUID();
  private final List<List<Address>> told = new ArrayList<>();
  private final List<Event> gms = new ArrayList<>();
  private final SuspicionTap tap =
      new SuspicionTap(
          new SuspicionTap.Sink() {
            @Override
            public void suspected(List<Address> members) {
              told.add(List.copyOf(members));
            }

            @Override
            public void unsuspected(Address member) {
              told.add(List.of());
            }
          });

  SuspicionTapTest() {
    tap.setUpProtocol(
        new Protocol() {
          @Override
          public Object up(Event evt) {
            gms.add(evt);
            return null;
          }
        });
    tap.holdBack(Set.of(heard)::contains);
  }

  @Test
  void aMemberHeardWhileBeingVerifiedIsLeftOutOfTheSuspicion() {
    tap.up(new Event(Event.SUSPECT, new ArrayList<>(List.of(heard, silent))));
    assertEquals(List.of(List.of(silent)), told, "the engine hears of the silent member only");
    assertEquals(1, gms.size());
    assertEquals(List.copyOf(gms.get(0).<Collection<Address>>getArg()), List.of(silent), "and so does GMS");
  }

  @Test
  void aSuspicionOfHeardMembersOnlyGoesNowhere() {
    tap.up(new Event(Event.SUSPECT, heard));
    tap.up(new Event(Event.SUSPECT, new ArrayList<>(List.of(heard))));
    assertEquals(List.of(), told, "nothing for the engine");
    assertEquals(List.of(), gms, "nothing for GMS");
  }

  @Test
  void aSilentMembersSuspicionAndAnUnsuspicionPassUnchanged() {
    Event one = new Event(Event.SUSPECT, silent);
    Event back = new Event(Event.UNSUSPECT, heard);
    tap.up(one);
    tap.up(back);
    assertEquals(List.of(one, back), gms, "the same events, as they came");
    assertEquals(List.of(List.of(silent), List.of()), told);
  }
}
