package io.trimswitch.sockets;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One line per kind of event, at most once per {@link #INTERVAL_NANOS}, with the number of those it held back: a
 * client that resets ten thousand connections makes one line a minute, not ten thousand stack traces.
 */
final class EventLog {
    static final long INTERVAL_NANOS = 60_000_000_000L;

    private final Consumer<String> sink;
    /** The host's clock in nanoseconds, as the endpoint that owns the log reads it. */
    private final LongSupplier nanos;
    private final Map<String, long[]> lastAndHeld = new HashMap<>();

    EventLog(final Consumer<String> sink, final LongSupplier nanos) {
        this.sink = sink;
        this.nanos = nanos;
    }

    /** Logs {@code line} unless an event of {@code kind} was logged within the interval. */
    synchronized void event(final String kind, final String line) {
        final long now = nanos.getAsLong();
        final long[] state = lastAndHeld.get(kind);
        if (state != null && now - state[0] < INTERVAL_NANOS) {
            state[1]++;
            return;
        }
        final long held = state == null ? 0 : state[1];
        if (lastAndHeld.size() < 64 || state != null) {
            lastAndHeld.put(kind, new long[] {now, 0});
        }
        sink.accept("metrics endpoint: " + line.replaceAll("[\\r\\n]+", " ")
            + (held > 0 ? " (and " + held + " more like it in the last minute)" : ""));
    }
}
