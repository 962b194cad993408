package dev.troupe.actor;

/**
 * Marks an exception as an expected failure: one that an actor throws as part of its ordinary
 * work (bad input, a task that cannot be done, a retry), which its supervisor handles as usual.
 *
 * <p>Only the log changes. A supervisor logs every failure it decides on as one line with the
 * actor's path, the exception and the decision ({@code restart}, {@code resume}, {@code stop} or
 * {@code escalate}); an unexpected failure adds its stack trace, an expected one does not (and is
 * logged at WARN rather than ERROR).
 *
 * <pre>{@code
 * final class InvalidOrder extends RuntimeException implements ExpectedFailure {
 *   InvalidOrder(String why) { super(why); }
 * }
 * }</pre>
 *
 * An {@link ActorInitializationException} is expected when its cause is. {@link
 * ActorKilledException} (the failure {@link Kill} causes) is expected. A strategy constructed
 * with {@code loggingEnabled = false} logs nothing at all.
 */
public interface ExpectedFailure {}
