package dev.troupe.bench.common;

/** Messages of the Savina benchmarks, shared by the Troupe and Pekko implementations. */
public final class SavinaMessages {
  private SavinaMessages() {}

  // ---- Counting

  /** Starts the producer: send {@code increments} increments, then ask for the count. */
  public record CountTo(Completion done, int increments) {}

  /** Adds one to the counter. */
  public enum Increment {
    INSTANCE
  }

  /** Asks the counter for its count (and resets it). */
  public enum Retrieve {
    INSTANCE
  }

  /** The counter's answer. */
  public record Count(int value) {}

  // ---- ThreadRing

  /** The token passed around the ring; allocated per hop, as in Savina. */
  public record Token(int hopsLeft, Completion done) {}

  // ---- Chameneos

  /** A chameneo's colour. */
  public enum Colour {
    RED,
    YELLOW,
    BLUE;

    /**
     * The colour after meeting {@code other}: the same if equal, else the third colour.
     *
     * @param other the other chameneo's colour
     * @return the new colour
     */
    public Colour complement(Colour other) {
      if (this == other) {
        return this;
      }
      for (Colour c : values()) {
        if (c != this && c != other) {
          return c;
        }
      }
      throw new AssertionError();
    }
  }

  /** Starts the mall: run {@code meetings} meetings among its chameneos. */
  public record HostMeetings(Completion done, int meetings) {}

  /** From the mall to each chameneo: start asking for meetings. */
  public enum StartMeeting {
    INSTANCE
  }

  /** A chameneo asks the mall for a meeting; the mall forwards it to the partner. */
  public record Meet(Colour colour) {}

  /** The partner's answer with its new colour. */
  public record Change(Colour colour) {}

  /** From the mall when no meetings are left. */
  public enum Fade {
    INSTANCE
  }

  /** A faded chameneo's report to the mall. */
  public record MeetingCount(int meetings) {}

  // ---- Big

  /** Starts the sink: tell every worker to ping until it has {@code pings} pongs. */
  public record StartBig(Completion done, int pings) {}

  /** From the sink to each worker. */
  public record Go(int pings) {}

  /** A worker's ping to a random worker. */
  public enum BigPing {
    INSTANCE
  }

  /** The reply. */
  public enum BigPong {
    INSTANCE
  }

  /** A worker reports to the sink that it received all its pongs. */
  public enum WorkerDone {
    INSTANCE
  }

  // ---- ForkJoinThroughput / ForkJoinCreate

  /** Tells a fork-join worker to expect {@code messages} messages, then complete. */
  public record Expect(Completion done, int messages) {}

  /** One unit of work: compute sin²(37.2). */
  public enum Compute {
    INSTANCE
  }

  /** ForkJoinCreate: compute once, stop, complete in {@code postStop}. */
  public record ComputeAndStop(Completion done) {}
}
