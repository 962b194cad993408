package dev.troupe.remote.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.HashMap;

/**
 * The sending half of a connection's string table (see {@link Wire}): the first use of a path or
 * manifest on a connection sends the string and gives it the next id; later uses send the id. Keys
 * are the {@code ActorRef}s whose paths are sent (their hash is their uid: no string is built or
 * hashed for a known ref) and manifest strings. Used on the connection's event loop only.
 */
final class OutboundTable {
  private final HashMap<Object, Integer> ids = new HashMap<>();
  private int bytes;

  /**
   * @param key a ref or a manifest
   * @return its id, or -1 when it has none yet
   */
  int idOf(Object key) {
    Integer id = ids.get(key);
    return id == null ? -1 : id;
  }

  /**
   * The most bytes {@link #write} takes for a key.
   *
   * @param id what {@link #idOf} returned
   * @param text the key's string when {@code id} is -1 (else ignored)
   */
  static int size(int id, String text) {
    if (id >= 0) {
      return Wire.varIntSize(id + Wire.REF_FIRST_ENTRY);
    }
    int n = ByteBufUtil.utf8Bytes(text);
    return 1 + Wire.varIntSize(n) + n;
  }

  /**
   * Writes a ref to a key, adding the key to the table when it is new and the table has room.
   *
   * @param out the frame
   * @param key the key
   * @param text its string (needed only when new)
   */
  void write(ByteBuf out, Object key, String text) {
    Integer id = ids.get(key);
    if (id != null) {
      Wire.writeVarInt(out, id + Wire.REF_FIRST_ENTRY);
      return;
    }
    int n = ByteBufUtil.utf8Bytes(text);
    if (ids.size() < Wire.TABLE_MAX_ENTRIES && bytes + n <= Wire.TABLE_MAX_BYTES) {
      ids.put(key, ids.size());
      bytes += n;
      out.writeByte(Wire.REF_NEW);
    } else {
      out.writeByte(Wire.REF_LITERAL);
    }
    Wire.writeVarInt(out, n);
    ByteBufUtil.writeUtf8(out, text);
  }
}
