package dev.troupe.routing;

/**
 * Asks a router for its current routees; it answers the sender with {@link Routees} (pools with
 * {@link ActorRefRoutee} entries, groups with {@link ActorSelectionRoutee} entries). Because it is
 * processed in order with the other management messages, the answer reflects every {@link
 * AddRoutee}, {@link RemoveRoutee} and {@link AdjustPoolSize} the same sender sent before.
 */
public final class GetRoutees implements RouterManagementMessage, java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final GetRoutees INSTANCE = new GetRoutees();

  private GetRoutees() {}

  /** @return the instance */
  public static GetRoutees getInstance() {
    return INSTANCE;
  }

  private Object readResolve() {
    return INSTANCE;
  }

  @Override
  public String toString() {
    return "GetRoutees";
  }
}
