package io.trimswitch.live;

import java.time.Duration;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Waits for what a test expects of a running switch by reading it again until it holds, up to a deadline: a fixed
 * sleep is either too long on a fast host or too short on a slow one.
 */
public final class Await {
    private static final long POLL_MILLIS = 10;

    /** Something read from the switch under test: its counters, a datagram (null: none yet). */
    @FunctionalInterface
    public interface Reading<T> {
        T read() throws Exception;
    }

    private Await() {
    }

    /** Reads until {@code done} holds or {@code within} has passed; the last reading either way, for the test to assert on. */
    public static <T> T until(final Duration within, final Reading<T> reading, final Predicate<T> done) throws Exception {
        final long deadline = System.nanoTime() + within.toNanos();
        T value = reading.read();
        while (!done.test(value) && System.nanoTime() - deadline < 0) {
            Thread.sleep(POLL_MILLIS);
            value = reading.read();
        }
        return value;
    }

    /**
     * The same for a test tagged {@code host-timing}: when the deadline passes, the host was too slow for the test, which
     * stops there rather than fail on a count the switch had no time to reach.
     */
    public static <T> T untilOrHostTooSlow(final Duration within, final String what, final Reading<T> reading, final Predicate<T> done)
        throws Exception {
        final T value = until(within, reading, done);
        if (!done.test(value)) {
            abort("host too slow: " + what + " within " + within.toMillis() + " ms; last read " + value);
        }
        return value;
    }
}
