package dev.troupe.serialization.internal;

import dev.troupe.serialization.SerializationException;

/**
 * The boxed primitives, identifier 3, with a one-letter manifest (the JVM's descriptor letter):
 * {@code I} Integer, {@code J} Long, {@code S} Short and {@code C} Character as zigzag varints (1
 * byte for small magnitudes), {@code B} Byte and {@code Z} Boolean as one byte, {@code D} Double
 * and {@code F} Float as their IEEE bits, big-endian (8 and 4 bytes).
 */
public final class PrimitiveSerializer implements InPlaceSerializer {
  /** Needs nothing of its system. */
  public PrimitiveSerializer() {}

  @Override
  public int identifier() {
    return 3;
  }

  @Override
  public String manifest(Object o) {
    if (o instanceof Integer) {
      return "I";
    } else if (o instanceof Long) {
      return "J";
    } else if (o instanceof Double) {
      return "D";
    } else if (o instanceof Float) {
      return "F";
    } else if (o instanceof Short) {
      return "S";
    } else if (o instanceof Byte) {
      return "B";
    } else if (o instanceof Boolean) {
      return "Z";
    } else if (o instanceof Character) {
      return "C";
    }
    throw new IllegalArgumentException("not a boxed primitive: " + o.getClass().getName());
  }

  @Override
  public byte[] toBinary(Object o) {
    WireWriter w = new WireWriter(10);
    if (o instanceof Integer || o instanceof Long || o instanceof Short) {
      w.writeSignedVarLong(((Number) o).longValue());
    } else if (o instanceof Double d) {
      w.writeLong(Double.doubleToRawLongBits(d));
    } else if (o instanceof Float f) {
      w.writeInt(Float.floatToRawIntBits(f));
    } else if (o instanceof Byte b) {
      w.writeByte(b);
    } else if (o instanceof Boolean b) {
      w.writeByte(b ? 1 : 0);
    } else if (o instanceof Character c) {
      w.writeVarInt(c);
    } else {
      throw new IllegalArgumentException("not a boxed primitive: " + o.getClass().getName());
    }
    return w.toByteArray();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return read(new WireReader(bytes, "boxed primitive", manifest), manifest);
  }

  @Override
  public Object read(WireReader r, String manifest) {
    Object value;
    switch (manifest) {
      case "I" -> value = (int) ranged(r.readSignedVarLong(), Integer.MIN_VALUE, Integer.MAX_VALUE, manifest);
      case "J" -> value = r.readSignedVarLong();
      case "S" -> value = (short) ranged(r.readSignedVarLong(), Short.MIN_VALUE, Short.MAX_VALUE, manifest);
      case "D" -> value = Double.longBitsToDouble(r.readLong());
      case "F" -> value = Float.intBitsToFloat(r.readInt());
      case "B" -> value = (byte) r.readByte();
      case "Z" -> value = r.readBoolean();
      case "C" -> value = (char) ranged(r.readVarInt(), Character.MIN_VALUE, Character.MAX_VALUE, manifest);
      default -> throw new SerializationException(
          "unknown manifest '" + manifest + "' for boxed primitives (expected one of I J S D F B Z C)");
    }
    r.end();
    return value;
  }

  private static long ranged(long v, long min, long max, String manifest) {
    if (v < min || v > max) {
      throw new SerializationException("malformed boxed primitive '" + manifest + "': " + v + " is out of range");
    }
    return v;
  }
}
