package dev.troupe.samples.remote;

/**
 * What the remote echo samples send: the client's message, which the server's echo actor sends
 * back unchanged. It crosses the network, so it needs a serializer: the samples' {@code
 * application.conf} binds it to {@code jackson-cbor}, which writes a record by its components with
 * no annotations.
 *
 * @param seq the client's sequence number, 0 .. N-1
 * @param sentAtNanos the client's {@link System#nanoTime()} at sending (only the client reads it)
 * @param payload filler bytes, {@code --payload-bytes} long
 */
public record EchoMessage(long seq, long sentAtNanos, byte[] payload) {}
