package dev.troupe.serialization.internal;


/**
 * {@code byte[]}, as is: no manifest, no header, no copy (the array is handed to the transport;
 * a sender must not change it after {@code tell}). Identifier 1.
 */
public final class ByteArraySerializer implements InPlaceSerializer {
  /** Needs nothing of its system. */
  public ByteArraySerializer() {}

  @Override
  public int identifier() {
    return 1;
  }

  @Override
  public String manifest(Object o) {
    return "";
  }

  @Override
  public byte[] toBinary(Object o) {
    return (byte[]) o;
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return bytes;
  }

  @Override
  public Object read(WireReader r, String manifest) {
    return r.readRemaining(); // the value is an array of its own
  }
}
