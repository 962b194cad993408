package dev.troupe.cluster.management;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.troupe.actor.ActorRef;
import dev.troupe.actor.ActorSystem;
import dev.troupe.actor.Address;
import dev.troupe.cluster.Cluster;
import dev.troupe.cluster.CurrentClusterState;
import dev.troupe.cluster.Member;
import dev.troupe.cluster.MemberStatus;
import dev.troupe.cluster.sharding.ClusterSharding;
import dev.troupe.cluster.sharding.ShardRegion;
import dev.troupe.pattern.Patterns;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * What the endpoint answers, apart from HTTP itself: each route reads the member's published view
 * ({@link Cluster#state()}, {@link Cluster#selfMember()}) or hands a command to the cluster, and
 * returns at once, so that it can run on the IO thread.
 */
final class Routes {
  /** The prefix of the member routes. */
  static final String MEMBERS = "/cluster/members";

  /** The prefix of the shard routes. */
  static final String SHARDS = "/cluster/shards/";

  /** How long a shard route waits for the region (which answers within 5 s with what it has). */
  static final Duration SHARDS_TIMEOUT = Duration.ofSeconds(6);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ActorSystem system;
  private final Cluster cluster;
  private final boolean readOnly;
  private final BooleanSupplier systemTerminated;

  /**
   * An answer.
   *
   * @param status the HTTP status code
   * @param json whether the body is JSON (else plain text)
   * @param body the body
   * @param allow for 405, the methods the path allows; else null
   */
  record Answer(int status, boolean json, String body, String allow) {
    static Answer text(int status, String body) {
      return new Answer(status, false, body, null);
    }

    static Answer message(int status, String message) {
      ObjectNode o = JSON.createObjectNode();
      o.put("message", message);
      return new Answer(status, true, o.toString(), null);
    }
  }

  Routes(ActorSystem system, Cluster cluster, boolean readOnly, BooleanSupplier systemTerminated) {
    this.system = system;
    this.cluster = cluster;
    this.readOnly = readOnly;
    this.systemTerminated = systemTerminated;
  }

  /**
   * The answer to a request: at once for every route but the shards' one, which asks the region.
   *
   * @param method the request's method, e.g. {@code GET}
   * @param path the request's path, without its query
   * @param body the request's body (form-encoded for PUT)
   * @return the answer, or the stage of it
   */
  CompletionStage<Answer> answerLater(String method, String path, String body) {
    if (path.startsWith(SHARDS) && path.length() > SHARDS.length()) {
      return method.equals("GET") ? shards(URLDecoder.decode(path.substring(SHARDS.length()), StandardCharsets.UTF_8))
          : CompletableFuture.completedFuture(notAllowed("GET"));
    }
    return CompletableFuture.completedFuture(answer(method, path, body));
  }

  /**
   * This member's region of a sharded type: its shards and how many entities each runs (not their
   * ids, which may be millions).
   */
  private CompletionStage<Answer> shards(String typeName) {
    ActorRef region;
    try {
      region = ClusterSharding.get(system).shardRegion(typeName);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return CompletableFuture.completedFuture(Answer.message(404, "no shard type '" + truncate(typeName) + "' here"));
    }
    return Patterns.ask(region, ShardRegion.getShardRegionStateInstance(), SHARDS_TIMEOUT).handle((r, e) -> {
      if (!(r instanceof ShardRegion.CurrentShardRegionState state)) {
        return Answer.message(503, "the region of '" + typeName + "' did not answer: " + e);
      }
      ObjectNode o = JSON.createObjectNode();
      o.put("selfNode", cluster.selfAddress().toString());
      o.put("typeName", typeName);
      ArrayNode shards = o.putArray("shards");
      int total = 0;
      for (ShardRegion.ShardState sh : state.shards().stream().sorted(Comparator.comparing(ShardRegion.ShardState::shardId)).toList()) {
        ObjectNode one = shards.addObject();
        one.put("shardId", sh.shardId());
        one.put("entities", sh.entityIds().size());
        total += sh.entityIds().size();
      }
      o.put("entities", total);
      return new Answer(200, true, o.toString(), null);
    });
  }

  /**
   * @param method the request's method, e.g. {@code GET}
   * @param path the request's path, without its query
   * @param body the request's body (form-encoded for PUT)
   * @return the answer
   */
  Answer answer(String method, String path, String body) {
    switch (path) {
      case "/health/ready":
        return method.equals("GET") ? ready() : notAllowed("GET");
      case "/health/alive":
        return method.equals("GET") ? alive() : notAllowed("GET");
      case MEMBERS:
      case MEMBERS + "/":
        return method.equals("GET") ? new Answer(200, true, members().toString(), null) : notAllowed("GET");
      default:
        break;
    }
    if (!path.startsWith(MEMBERS + "/")) {
      return Answer.message(404, "no route " + path);
    }
    Address address;
    try {
      address = Address.parse(URLDecoder.decode(path.substring(MEMBERS.length() + 1), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return Answer.message(400, "not a member address: " + e.getMessage());
    }
    Optional<Member> member = cluster.state().member(address);
    switch (method) {
      case "GET":
        return member.map(m -> new Answer(200, true, member(m).toString(), null))
            .orElseGet(() -> Answer.message(404, "no member " + address));
      case "PUT":
      case "DELETE":
        if (readOnly) {
          return Answer.message(403, "this endpoint is read-only (troupe.cluster.management.http.read-only = on)");
        }
        if (member.isEmpty()) {
          return Answer.message(404, "no member " + address);
        }
        String op = method.equals("DELETE") ? "leave" : operation(body);
        if (op.equals("leave")) {
          cluster.leave(address);
          return Answer.message(200, "leaving " + address);
        } else if (op.equals("down")) {
          cluster.down(address);
          return Answer.message(200, "downing " + address);
        }
        return Answer.message(400, "expected operation=leave or operation=down, got '" + truncate(body) + "'");
      default:
        return notAllowed("GET, PUT, DELETE");
    }
  }

  private static Answer notAllowed(String allow) {
    return new Answer(405, true, "{\"message\":\"method not allowed\"}", allow);
  }

  /** The {@code operation} of a form body ({@code operation=leave}), lower-cased; "" if none. */
  private static String operation(String body) {
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && pair.substring(0, eq).trim().equalsIgnoreCase("operation")) {
        return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8).trim().toLowerCase(Locale.ROOT);
      }
    }
    return "";
  }

  private static String truncate(String s) {
    return s.length() <= 100 ? s : s.substring(0, 100) + "...";
  }

  /** Ready when this member is Up and the system runs: it may take traffic. */
  private Answer ready() {
    MemberStatus s = cluster.selfMember().status();
    if (s == MemberStatus.UP && !systemTerminated.getAsBoolean()) {
      return Answer.text(200, "OK");
    }
    return Answer.text(503, "not ready: this member is " + name(s));
  }

  /** Alive while the system runs and this member has not been downed or removed. */
  private Answer alive() {
    MemberStatus s = cluster.selfMember().status();
    if (systemTerminated.getAsBoolean()) {
      return Answer.text(503, "not alive: the actor system has terminated");
    }
    if (s == MemberStatus.DOWN || s == MemberStatus.REMOVED) {
      return Answer.text(503, "not alive: this member is " + name(s));
    }
    return Answer.text(200, "OK");
  }

  private ObjectNode members() {
    CurrentClusterState state = cluster.state();
    ObjectNode o = JSON.createObjectNode();
    o.put("selfNode", cluster.selfAddress().toString());
    o.put("leader", state.leader().map(Address::toString).orElse(null));
    o.put("oldest", state.members().stream().filter(m -> m.status() == MemberStatus.UP)
        .min(Member.ageOrdering()).map(m -> m.address().toString()).orElse(null));
    ArrayNode members = o.putArray("members");
    state.members().stream().sorted(Comparator.comparing(m -> m.address().toString())).forEach(m -> members.add(member(m)));
    ArrayNode unreachable = o.putArray("unreachable");
    state.unreachable().stream().map(m -> m.address().toString()).sorted().forEach(unreachable::add);
    return o;
  }

  private static ObjectNode member(Member m) {
    ObjectNode o = JSON.createObjectNode();
    o.put("node", m.address().toString());
    o.put("nodeUid", Long.toString(m.uniqueAddress().uid()));
    o.put("status", name(m.status()));
    ArrayNode roles = o.putArray("roles");
    m.roles().stream().sorted().forEach(roles::add);
    return o;
  }

  /** {@code UP} as {@code Up}, as Pekko Management writes statuses. */
  private static String name(MemberStatus s) {
    String n = s.name();
    return n.charAt(0) + n.substring(1).toLowerCase(Locale.ROOT);
  }
}
