package dev.troupe.remote.internal;

import dev.troupe.actor.ActorPath;
import dev.troupe.actor.internal.InternalActorRef;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The receiving half of a connection's string table (see {@link Wire}), built in the order the
 * peer's {@link OutboundTable} was, with the same limits: a peer that goes beyond them breaks the
 * protocol. Paths resolved from an entry are kept beside it when the result cannot change (a path
 * with a uid names one incarnation; a ref to another node is a plain address holder). Used on the
 * connection's event loop only.
 */
final class InboundTable {
  /** {@link #read} result: no string. */
  static final int NONE = -1;
  /** {@link #read} result: a string not remembered, in {@link #literal}. */
  static final int LITERAL = -2;

  private final ArrayList<String> strings = new ArrayList<>();
  private InternalActorRef[] refs = new InternalActorRef[16];
  private int bytes;
  private String literal;

  /**
   * Reads one ref.
   *
   * @param b the frame
   * @return the entry's index, {@link #NONE} or {@link #LITERAL}
   */
  int read(ByteBuf b) {
    int code = Wire.readVarInt(b);
    if (code == Wire.REF_NONE) {
      return NONE;
    }
    if (code == Wire.REF_NEW || code == Wire.REF_LITERAL) {
      String s = Wire.readString(b);
      if (code == Wire.REF_LITERAL) {
        literal = s;
        return LITERAL;
      }
      int n = ByteBufUtil.utf8Bytes(s); // as the sender counted it: a Java string's UTF-8 round-trips
      if (strings.size() >= Wire.TABLE_MAX_ENTRIES || bytes + n > Wire.TABLE_MAX_BYTES) {
        throw new Wire.ProtocolException("the peer's string table grew beyond its limits");
      }
      bytes += n;
      strings.add(s);
      return strings.size() - 1;
    }
    int id = code - Wire.REF_FIRST_ENTRY;
    if (id < 0 || id >= strings.size()) {
      throw new Wire.ProtocolException("reference to string " + id + " of " + strings.size());
    }
    return id;
  }

  /**
   * @param code what {@link #read} returned
   * @return the string, or null for {@link #NONE}
   */
  String string(int code) {
    return code >= 0 ? strings.get(code) : code == LITERAL ? literal : null;
  }

  /**
   * The ref a path string resolves to, cached for entries when it cannot change.
   *
   * @param code what {@link #read} returned (not {@link #NONE})
   * @param resolve turns a path into a ref
   * @return the ref
   * @throws IllegalArgumentException if the string is not an actor path
   */
  InternalActorRef ref(int code, Function<ActorPath, InternalActorRef> resolve) {
    if (code >= 0 && code < refs.length && refs[code] != null) {
      return refs[code];
    }
    InternalActorRef ref = resolve.apply(ActorPath.fromString(string(code)));
    if (code >= 0 && (ref.path().uid() != ActorPath.UNDEFINED_UID || !ref.isLocal())) {
      if (code >= refs.length) {
        refs = Arrays.copyOf(refs, Math.max(code + 1, refs.length * 2));
      }
      refs[code] = ref;
    }
    return ref;
  }
}
