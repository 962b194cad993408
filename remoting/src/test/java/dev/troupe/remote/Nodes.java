package dev.troupe.remote;

import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import java.time.Duration;

/** What the remoting tests share: the configuration of a node on 127.0.0.1 with an ephemeral port. */
final class Nodes {
  /** A remote node listening on 127.0.0.1, any free port. */
  static final String REMOTE =
      "troupe.actor.provider = remote\n"
          + "troupe.remote.canonical.hostname = \"127.0.0.1\"\n"
          + "troupe.remote.canonical.port = 0\n";

  /** How long a test waits for anything to cross loopback (generous: the build box may be busy). */
  static final Duration WAIT = Duration.ofSeconds(10);

  private Nodes() {}

  /** Looks {@code path} (e.g. {@code /user/echo}) up on {@code target} from {@code from}. */
  static ActorRef lookup(ActorSystem from, ActorSystem target, String path) {
    return from.actorSelection(target.address() + path).resolveOne(WAIT).toCompletableFuture().join();
  }
}
