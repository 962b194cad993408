package dev.troupe.remote.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;
import java.util.HashMap;

/**
 * The sending half of a connection's string table (see {@link Wire}): the first use of a path or
 * manifest on a connection sends the string and gives it a slot; later uses send the slot. Keys
 * are the {@code ActorRef}s whose paths are sent (their hash is their uid: no string is built or
 * hashed for a known ref) and manifest strings.
 *
 * <p>Once the table is full a new string replaces the entry that a clock picks: the hand moves
 * over the slots, clearing the mark of an entry used since it last passed and taking the first
 * unmarked one, so that paths used once (temporary reply paths) go and paths in use stay. Entries
 * named by the envelope being written ({@link #startEnvelope}, {@link #idOf}) are never taken, so
 * that the sizes computed before writing hold. Used on the connection's event loop only.
 */
public final class OutboundTable {
  /** The most bytes a slot's varint takes. */
  private static final int SLOT_BYTES = Wire.varIntSize(Wire.TABLE_MAX_ENTRIES - 1);

  private final HashMap<Object, Integer> ids = new HashMap<>();
  // per slot, grown as the table fills: the key, its string's UTF-8 bytes, whether it was used
  // since the hand last passed it, the envelope that last named it
  private Object[] keys = new Object[16];
  private int[] sizes = new int[16];
  private boolean[] marked = new boolean[16];
  private int[] envelopeOf = new int[16];
  private int count;
  private int bytes;
  private int hand;
  private int envelope = 1;

  /** Starts an envelope: the entries it names from now on stay until the next call. */
  void startEnvelope() {
    envelope++;
  }

  /**
   * Looks a key up, marking its entry as used by the current envelope.
   *
   * @param key a ref or a manifest
   * @return its slot, or -1 when it has none
   */
  int idOf(Object key) {
    Integer id = ids.get(key);
    if (id == null) {
      return -1;
    }
    use(id);
    return id;
  }

  private void use(int id) {
    marked[id] = true;
    envelopeOf[id] = envelope;
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
    return 1 + SLOT_BYTES + Wire.varIntSize(n) + n;
  }

  /**
   * Writes a ref to a key: its slot when it has one, else the string, remembered in a free slot
   * or in place of an entry the clock gives up, or not remembered when no entry makes room.
   *
   * @param out the frame
   * @param key the key
   * @param text its string (needed only when new)
   */
  public void write(ByteBuf out, Object key, String text) {
    Integer id = ids.get(key);
    if (id != null) {
      use(id);
      Wire.writeVarInt(out, id + Wire.REF_FIRST_ENTRY);
      return;
    }
    int n = ByteBufUtil.utf8Bytes(text);
    int slot;
    if (n > Wire.TABLE_MAX_ENTRY_BYTES) {
      slot = -1;
      out.writeByte(Wire.REF_LITERAL);
    } else if (count < Wire.TABLE_MAX_ENTRIES && bytes + n <= Wire.TABLE_MAX_BYTES) {
      slot = count++;
      if (slot == keys.length) {
        grow();
      }
      out.writeByte(Wire.REF_NEW);
    } else {
      slot = victim(n);
      if (slot < 0) {
        out.writeByte(Wire.REF_LITERAL);
      } else {
        ids.remove(keys[slot]);
        bytes -= sizes[slot];
        out.writeByte(Wire.REF_REPLACE);
        Wire.writeVarInt(out, slot);
      }
    }
    if (slot >= 0) {
      ids.put(key, slot);
      keys[slot] = key;
      sizes[slot] = n;
      bytes += n;
      marked[slot] = false; // one round of the hand to be used again
      envelopeOf[slot] = envelope;
    }
    Wire.writeVarInt(out, n);
    ByteBufUtil.writeUtf8(out, text);
  }

  /**
   * @param n the UTF-8 bytes of the new string
   * @return the slot the clock gives up for it, or -1 when none may go or makes room
   */
  private int victim(int n) {
    for (int steps = 2 * count; steps > 0; steps--) {
      int s = hand;
      hand = hand + 1 == count ? 0 : hand + 1;
      if (envelopeOf[s] == envelope || bytes - sizes[s] + n > Wire.TABLE_MAX_BYTES) {
        continue;
      }
      if (marked[s]) {
        marked[s] = false;
        continue;
      }
      return s;
    }
    return -1;
  }

  private void grow() {
    int n = Math.min(keys.length * 2, Wire.TABLE_MAX_ENTRIES);
    keys = Arrays.copyOf(keys, n);
    sizes = Arrays.copyOf(sizes, n);
    marked = Arrays.copyOf(marked, n);
    envelopeOf = Arrays.copyOf(envelopeOf, n);
  }

  /** @return the number of entries (for tests) */
  int entries() {
    return count;
  }
}
