package dev.troupe.serialization;

/**
 * A message could not be serialized or deserialized: no serializer is bound for its class, the
 * serializer identifier or manifest is unknown, the bytes are malformed, or a serializer failed.
 * The message names the class, the serializer and, where configuration can fix it, the key.
 */
public class SerializationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what went wrong
   */
  public SerializationException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong
   * @param cause the underlying error
   */
  public SerializationException(String message, Throwable cause) {
    super(message, cause);
  }
}
