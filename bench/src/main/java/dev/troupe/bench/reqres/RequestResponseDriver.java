package dev.troupe.bench.reqres;

/**
 * One side of {@code TypedRequestResponse}: {@code clients} client actors, each with its own server
 * actor, on one dispatcher. A client keeps {@code inFlight} requests outstanding; each response
 * that arrives triggers the next request until the client has had its quota answered, then it
 * completes the invocation. Every request and every response is a new message object carrying a
 * sequence number, as in an application.
 */
public interface RequestResponseDriver {
  /** How a client gets its responses. */
  enum Mode {
    /**
     * The request carries where to reply: the client's own ref (typed), or the sender (classic).
     */
    REPLY_TO("reply-to"),
    /**
     * The client asks from inside the actor: {@code ActorContext.ask} (typed) or {@code
     * Patterns.ask} piped back to the client (classic); a temporary reply ref, a timeout and a
     * completion per request.
     */
    ASK("ask");

    private final String id;

    Mode(String id) {
      this.id = id;
    }

    /**
     * @param id {@code reply-to} or {@code ask}
     * @return the mode
     */
    public static Mode of(String id) {
      for (Mode m : values()) {
        if (m.id.equals(id)) {
          return m;
        }
      }
      throw new IllegalArgumentException("unknown mode '" + id + "': expected reply-to or ask");
    }
  }

  /**
   * Starts the system and the actors.
   *
   * @param clients client/server pairs
   * @param inFlight requests outstanding per client
   * @param mode how responses come back
   */
  void setup(int clients, int inFlight, Mode mode);

  /**
   * Runs one invocation and waits for it (bounded).
   *
   * @param requestsPerClient requests each client has answered
   */
  void runIteration(int requestsPerClient);

  /** Terminates the system (bounded). */
  void teardown();

  /**
   * @param impl {@code troupe} (classic actors), {@code troupe-typed} or {@code pekko-typed}
   * @return its driver
   */
  static RequestResponseDriver create(String impl) {
    return switch (impl) {
      case "troupe" -> new TroupeRequestResponse();
      case "troupe-typed" -> new TypedTroupeRequestResponse();
      case "pekko-typed" -> new PekkoTypedRequestResponse();
      default -> throw new IllegalArgumentException(
          "unknown impl '" + impl + "': expected troupe, troupe-typed or pekko-typed");
    };
  }
}
