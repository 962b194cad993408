package dev.troupe.samples.monkeys;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every {@link Shakespeare} and his monkeys work with; shared, read-only but for the gauge.
 *
 * @param lexicon the words that count as Shakespearian
 * @param timeout how long a request may take before the monkeys are sent home
 * @param monkeyDelay how long each monkey waits before it answers (zero: at once)
 * @param liveMonkeys the monkeys alive right now: each adds itself when it starts and removes
 *     itself when it stops, any thread
 */
record Workshop(Lexicon lexicon, Duration timeout, Duration monkeyDelay, AtomicInteger liveMonkeys) {}
