package dev.troupe.bench.reqres;

import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.typed.ActorRef;
import dev.troupe.actor.typed.Behavior;
import dev.troupe.actor.typed.Props;
import dev.troupe.actor.typed.javadsl.AbstractBehavior;
import dev.troupe.actor.typed.javadsl.ActorContext;
import dev.troupe.actor.typed.javadsl.Adapter;
import dev.troupe.actor.typed.javadsl.Behaviors;
import dev.troupe.actor.typed.javadsl.Receive;
import dev.troupe.bench.common.Completion;
import dev.troupe.bench.common.Dispatchers;
import dev.troupe.bench.common.Impl;
import dev.troupe.bench.common.Names;
import dev.troupe.bench.common.TroupeSystems;
import java.time.Duration;

/**
 * Typed Troupe side of {@code TypedRequestResponse} ({@code impl=troupe-typed}): the request
 * carries its reply-to ref (the client's own ref, narrowed to the response); in {@code ask} mode
 * the client uses {@code ActorContext.ask}, whose answer comes back as the response itself.
 */
final class TypedTroupeRequestResponse implements RequestResponseDriver {
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
    system = TroupeSystems.start(Names.unique("typed-reqres"), Dispatchers.section(Impl.TROUPE, Dispatchers.DEFAULT_THROUGHPUT));
    Props onBench = Props.empty().withDispatcher(Dispatchers.ID);
    Behavior<Request> server = Behaviors.setup(Server::new);
    this.clients = new ActorRef[clients];
    for (int i = 0; i < clients; i++) {
      ActorRef<Request> s = Adapter.toTyped(system.actorOf(Adapter.props(server, onBench)));
      this.clients[i] =
          Adapter.toTyped(system.actorOf(Adapter.props(Behaviors.<ClientMsg>setup(ctx -> new Client(ctx, s, mode == Mode.ASK)), onBench)));
    }
  }

  @Override
  public void runIteration(int requestsPerClient) {
    Completion done = new Completion(clients.length);
    Start start = new Start(done, requestsPerClient, inFlight);
    for (ActorRef<ClientMsg> c : clients) {
      c.tell(start);
    }
    done.await("typed troupe request/response");
  }

  @Override
  public void teardown() {
    TroupeSystems.stop(system);
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
