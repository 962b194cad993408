package dev.troupe.actor.typed;

import dev.troupe.actor.Done;
import java.util.Objects;

/**
 * A reply that is either a value or an error, for a question that can fail: the asker of {@code
 * AskPattern.askWithStatus} (or {@code getContext().askWithStatus}) sees the value, or a failed stage
 * with the error. A sealed interface, so that a Java 21 {@code switch} covers both cases:
 *
 * <pre>{@code
 * switch (reply) {
 *   case StatusReply.Success<Integer> s -> use(s.value());
 *   case StatusReply.Error<Integer> e -> log(e.error());
 * }
 * }</pre>
 *
 * @param <T> the type of the value
 */
public sealed interface StatusReply<T> permits StatusReply.Success, StatusReply.Error {
  /**
   * @param value the answer
   * @param <T> its type
   * @return a successful reply
   */
  static <T> StatusReply<T> success(T value) {
    return new Success<>(value);
  }

  /** @return a successful reply that carries no value ({@link Done}) */
  static StatusReply<Done> ack() {
    return Success.ACK;
  }

  /**
   * An error described by a message; the asker's stage fails with an {@link ErrorMessage}
   * carrying it (no stack trace: it is an answer, not a bug).
   *
   * @param message what went wrong
   * @param <T> the type a success would carry
   * @return an error reply
   */
  static <T> StatusReply<T> error(String message) {
    return new Error<>(new ErrorMessage(message));
  }

  /**
   * @param cause the error
   * @param <T> the type a success would carry
   * @return an error reply
   */
  static <T> StatusReply<T> error(Throwable cause) {
    return new Error<>(cause);
  }

  /** @return whether this is a success */
  boolean isSuccess();

  /** @return whether this is an error */
  default boolean isError() {
    return !isSuccess();
  }

  /**
   * @return the value of a success
   * @throws IllegalStateException for an error (with it as the cause)
   */
  T getValue();

  /**
   * @return the error of an error reply
   * @throws IllegalStateException for a success
   */
  Throwable getError();

  /**
   * A successful reply.
   *
   * @param value the answer
   * @param <T> its type
   */
  record Success<T>(T value) implements StatusReply<T> {
    static final Success<Done> ACK = new Success<>(Done.getInstance());

    @Override
    public boolean isSuccess() {
      return true;
    }

    @Override
    public T getValue() {
      return value;
    }

    @Override
    public Throwable getError() {
      throw new IllegalStateException("a success has no error: " + this);
    }
  }

  /**
   * An error reply.
   *
   * @param error what went wrong
   * @param <T> the type a success would carry
   */
  record Error<T>(Throwable error) implements StatusReply<T> {
    /** @param error what went wrong (not null) */
    public Error {
      Objects.requireNonNull(error, "error");
    }

    @Override
    public boolean isSuccess() {
      return false;
    }

    @Override
    public T getValue() {
      throw new IllegalStateException("an error reply has no value", error);
    }

    @Override
    public Throwable getError() {
      return error;
    }
  }

  /** The error of {@link StatusReply#error(String)}: a message, without a stack trace. */
  final class ErrorMessage extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what went wrong */
    public ErrorMessage(String message) {
      super(Objects.requireNonNull(message, "message"), null, false, false);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ErrorMessage e && e.getMessage().equals(getMessage());
    }

    @Override
    public int hashCode() {
      return getMessage().hashCode();
    }
  }
}
