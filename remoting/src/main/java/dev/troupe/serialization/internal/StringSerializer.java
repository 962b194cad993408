package dev.troupe.serialization.internal;

import java.nio.charset.StandardCharsets;

/**
 * {@code String} as UTF-8, no manifest, no header. Identifier 2. (An unpaired surrogate, which is
 * not Unicode text, is written as {@code ?}, as UTF-8 requires.)
 */
public final class StringSerializer implements InPlaceSerializer {
  /** Needs nothing of its system. */
  public StringSerializer() {}

  @Override
  public int identifier() {
    return 2;
  }

  @Override
  public String manifest(Object o) {
    return "";
  }

  @Override
  public byte[] toBinary(Object o) {
    return ((String) o).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public Object read(WireReader r, String manifest) {
    return r.readRemainingString();
  }
}
