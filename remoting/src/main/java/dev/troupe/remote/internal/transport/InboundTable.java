package dev.troupe.remote.internal.transport;

import dev.troupe.actor.ActorPath;
import dev.troupe.runtime.spi.InternalActorRef;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The receiving half of a connection's string table (see {@link Wire}), built in the order the
 * peer's {@link OutboundTable} was, with the same limits: a peer that goes beyond them, or names a
 * slot it never filled, breaks the protocol. {@link #read} hands out the {@link Entry} itself, so
 * what a field said stays what it said when a later field replaces its slot. Used on the
 * connection's event loop only.
 */
final class InboundTable {
  private Entry[] entries = new Entry[16];
  private int count;
  private int bytes;

  /**
   * A string as it crossed, and the ref its path resolves to, kept beside a remembered entry when
   * it cannot change (a path with a uid names one incarnation; a ref to another node is a plain
   * address holder).
   */
  static final class Entry {
    final String text;
    private final int bytes; // what it counts against the table's limit; -1 when not remembered
    private InternalActorRef ref;
    private int pathHash; // the hash code of ref's path, once asked for; 0: not yet

    Entry(String text, int bytes) {
      this.text = text;
      this.bytes = bytes;
    }

    /**
     * @param resolve turns a path into a ref
     * @return the ref the string names
     * @throws IllegalArgumentException if the string is not an actor path
     */
    InternalActorRef ref(Function<ActorPath, InternalActorRef> resolve) {
      InternalActorRef r = ref;
      if (r != null) {
        return r;
      }
      r = resolve.apply(ActorPath.fromString(text));
      if (bytes >= 0 && (r.path().uid() != ActorPath.UNDEFINED_UID || !r.isLocal())) {
        ref = r;
      }
      return r;
    }

    /**
     * @param r the ref {@link #ref} gave
     * @return the hash code of {@code r}'s path: worked out once for the ref kept beside the entry
     *     (a path's hash walks all its elements), anew for any other
     */
    int pathHash(InternalActorRef r) {
      if (r != ref) {
        return r.path().hashCode();
      }
      int h = pathHash;
      if (h == 0) {
        h = r.path().hashCode();
        pathHash = h;
      }
      return h;
    }
  }

  /**
   * Reads one ref.
   *
   * @param b the frame
   * @return its entry, or null for none
   */
  Entry read(ByteBuf b) {
    int code = Wire.readVarInt(b);
    switch (code) {
      case Wire.REF_NONE:
        return null;
      case Wire.REF_LITERAL:
        return new Entry(Wire.readString(b), -1);
      case Wire.REF_NEW: {
        if (count == Wire.TABLE_MAX_ENTRIES) {
          throw new Wire.ProtocolException("the peer's string table grew beyond " + Wire.TABLE_MAX_ENTRIES + " entries");
        }
        Entry e = remember(Wire.readString(b), 0);
        if (count == entries.length) {
          entries = Arrays.copyOf(entries, Math.min(count * 2, Wire.TABLE_MAX_ENTRIES));
        }
        entries[count++] = e;
        return e;
      }
      case Wire.REF_REPLACE: {
        int slot = slot(Wire.readVarInt(b));
        Entry e = remember(Wire.readString(b), entries[slot].bytes);
        entries[slot] = e;
        return e;
      }
      default:
        return entries[slot(code - Wire.REF_FIRST_ENTRY)];
    }
  }

  private int slot(int id) {
    if (id < 0 || id >= count) {
      throw new Wire.ProtocolException("reference to string " + id + " of " + count);
    }
    return id;
  }

  /** @param freed the bytes of the entry it replaces */
  private Entry remember(String s, int freed) {
    int n = ByteBufUtil.utf8Bytes(s); // as the sender counted it: a Java string's UTF-8 round-trips
    if (bytes - freed + n > Wire.TABLE_MAX_BYTES) {
      throw new Wire.ProtocolException("the peer's string table grew beyond " + Wire.TABLE_MAX_BYTES + " bytes");
    }
    bytes += n - freed;
    return new Entry(s, n);
  }
}
