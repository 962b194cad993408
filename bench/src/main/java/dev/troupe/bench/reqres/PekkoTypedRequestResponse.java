package dev.troupe.bench.reqres;

import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.PekkoSystems;
import java.time.Duration;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Pekko Typed side of {@code TypedRequestResponse} ({@code impl=pekko-typed}); mirrors {@link
 * TypedTroupeRequestResponse} line by line, on Pekko's default dispatcher settings (as {@code
 * impl=pekko} elsewhere).
 */
final class PekkoTypedRequestResponse implements RequestResponseDriver {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private ActorSystem system;
  private ActorRef<ClientMsg>[] clients;
  private int inFlight;

  /** What a client accepts. */
  interface ClientMsg {}

  /** A request. */
  record Request(int seq, ActorRef<Response> replyTo) {}

  /** Its response. */
  record Response(int seq) implements ClientMsg {}

  /** An ask that failed. */
  record Failed(Throwable cause) implements ClientMsg {}

  /** Starts an iteration at a client. */
  record Start(Completion done, int requests, int inFlight) implements ClientMsg {}

  @Override
  @SuppressWarnings("unchecked")
  public void setup(int clients, int inFlight, Mode mode) {
    this.inFlight = inFlight;
    system = PekkoSystems.start(Names.unique("pekko-typed-reqres"), Dispatchers.section(Impl.PEKKO, Dispatchers.DEFAULT_THROUGHPUT));
    DispatcherSelector onBench = DispatcherSelector.fromConfig(Dispatchers.ID);
    Behavior<Request> server = Behaviors.setup(Server::new);
    this.clients = new ActorRef[clients];
    for (int i = 0; i < clients; i++) {
      ActorRef<Request> s = Adapter.spawnAnonymous(system, server, onBench);
      this.clients[i] =
          Adapter.spawnAnonymous(system, Behaviors.<ClientMsg>setup(ctx -> new Client(ctx, s, mode == Mode.ASK)), onBench);
    }
  }

  @Override
  public void runIteration(int requestsPerClient) {
    Completion done = new Completion(clients.length);
    Start start = new Start(done, requestsPerClient, inFlight);
    for (ActorRef<ClientMsg> c : clients) {
      c.tell(start);
    }
    done.await("pekko typed request/response");
  }

  @Override
  public void teardown() {
    PekkoSystems.stop(system);
  }

  static final class Client extends AbstractBehavior<ClientMsg> {
    private final ActorRef<Request> server;
    private final ActorRef<Response> self;
    private final boolean ask;
    private Completion done;
    private int quota;
    private int sent;
    private int received;

    Client(ActorContext<ClientMsg> ctx, ActorRef<Request> server, boolean ask) {
      super(ctx);
      this.server = server;
      this.self = ctx.getSelf().narrow();
      this.ask = ask;
    }

    @Override
    public Receive<ClientMsg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Response.class, this::onResponse)
          .onMessage(Start.class, this::onStart)
          .onMessage(Failed.class, f -> {
            done.fail("ask failed: " + f.cause());
            return this;
          })
          .build();
    }

    private Behavior<ClientMsg> onResponse(Response r) {
      received++;
      if (sent < quota) {
        send();
      } else if (received == quota) {
        done.done();
      }
      return this;
    }

    private Behavior<ClientMsg> onStart(Start s) {
      done = s.done();
      quota = s.requests();
      sent = 0;
      received = 0;
      int initial = Math.min(s.inFlight(), quota);
      for (int i = 0; i < initial; i++) {
        send();
      }
      return this;
    }

    private void send() {
      int seq = sent++;
      if (ask) {
        getContext().ask(
            Response.class,
            server,
            TIMEOUT,
            replyTo -> new Request(seq, replyTo),
            (res, failure) -> res != null ? res : new Failed(failure));
      } else {
        server.tell(new Request(seq, self));
      }
    }
  }

  static final class Server extends AbstractBehavior<Request> {
    Server(ActorContext<Request> ctx) {
      super(ctx);
    }

    @Override
    public Receive<Request> createReceive() {
      return newReceiveBuilder()
          .onMessage(Request.class, r -> {
            r.replyTo().tell(new Response(r.seq()));
            return this;
          })
          .build();
    }
  }
}
