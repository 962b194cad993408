package dev.troupe.actor;

/**
 * A failure that stands for one thrown on another node: what a supervisor's decider sees when a
 * child deployed onto another node fails, and what an ask fails with when another node answers
 * with a {@code Status.Failure}. The original exception is never re-created here (a peer's bytes
 * must not choose which classes are constructed); its class name and whether it was an {@link
 * ExpectedFailure} travel instead.
 *
 * <p>Match it in a decider by the original class with {@link
 * DeciderBuilder#matchRemote(Class, java.util.function.Function)}; the failure log line names it as
 * what the decider saw, e.g. {@code RemoteFailure(com.example.Flaky: flaked)}.
 */
public interface RemoteCause {
  /** @return the fully qualified class name of the exception thrown on the other node */
  String originalClassName();

  /** @return whether the original exception was an {@link ExpectedFailure} (logged without a stack trace) */
  boolean expectedFailure();
}
