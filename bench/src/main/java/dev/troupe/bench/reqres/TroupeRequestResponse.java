package dev.troupe.bench.reqres;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Props;
import dev.troupe.actor.UntypedActor;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.TroupeSystems;
import dev.troupe.pattern.Patterns;
import java.time.Duration;

/**
 * Classic Troupe side of {@code TypedRequestResponse} ({@code impl=troupe}): the server answers
 * the sender; in {@code ask} mode the client asks with {@code Patterns.ask} and pipes the answer to
 * itself on its dispatcher, as a classic actor does.
 */
final class TroupeRequestResponse implements RequestResponseDriver {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private ActorSystem system;
  private ActorRef[] clients;
  private int inFlight;

  /** A request. */
  record Request(int seq) {}

  /** Its response. */
  record Response(int seq) {}

  /** Starts an iteration at a client. */
  record Start(Completion done, int requests, int inFlight) {}

  @Override
  public void setup(int clients, int inFlight, Mode mode) {
    this.inFlight = inFlight;
    system = TroupeSystems.start(Names.unique("reqres"), Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    Props serverProps = Props.create(Server.class, Server::new).withDispatcher(Dispatchers.ID);
    this.clients = new ActorRef[clients];
    for (int i = 0; i < clients; i++) {
      ActorRef server = system.actorOf(serverProps);
      this.clients[i] =
          system.actorOf(Props.create(Client.class, () -> new Client(server, mode == Mode.ASK)).withDispatcher(Dispatchers.ID));
    }
  }

  @Override
  public void runIteration(int requestsPerClient) {
    Completion done = new Completion(clients.length);
    Start start = new Start(done, requestsPerClient, inFlight);
    for (ActorRef c : clients) {
      c.tell(start, ActorRef.noSender());
    }
    done.await("troupe request/response");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
  }

  static final class Client extends UntypedActor {
    private final ActorRef server;
    private final boolean ask;
    private Completion done;
    private int quota;
    private int sent;
    private int received;

    Client(ActorRef server, boolean ask) {
      this.server = server;
      this.ask = ask;
    }

    @Override
    public void onReceive(Object message) {
      if (message instanceof Response) {
        received++;
        if (sent < quota) {
          send();
        } else if (received == quota) {
          done.done();
        }
      } else if (message instanceof Start s) {
        done = s.done();
        quota = s.requests();
        sent = 0;
        received = 0;
        int initial = Math.min(s.inFlight(), quota);
        for (int i = 0; i < initial; i++) {
          send();
        }
      } else {
        unhandled(message);
      }
    }

    private void send() {
      Request r = new Request(sent++);
      if (ask) {
        Patterns.pipe(Patterns.ask(server, r, TIMEOUT), getContext().dispatcher()).to(getSelf());
      } else {
        server.tell(r, getSelf());
      }
    }
  }

  static final class Server extends UntypedActor {
    @Override
    public void onReceive(Object message) {
      if (message instanceof Request r) {
        getSender().tell(new Response(r.seq()), getSelf());
      } else {
        unhandled(message);
      }
    }
  }
}
