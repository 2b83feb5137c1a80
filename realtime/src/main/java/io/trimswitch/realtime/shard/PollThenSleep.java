package io.trimswitch.realtime.shard;

import org.agrona.concurrent.IdleStrategy;

/**
 * {@code realtime.idle: poll}: polls a while after the last frame received and a moment after any other work, then
 * sleeps in the ports' poller as long as the shard allows ({@link Rest#sleepNanos()}). It reads no clock of its own:
 * the time is the shard's turn's ({@link Rest#turnNanos()}), so a polling turn reads the clock once, not twice.
 */
final class PollThenSleep implements IdleStrategy {
    /**
     * How long it keeps polling after any other work: a departure on a slow link (1.12 ms for 1,400 B at 0.01 Gb/s)
     * is the thread's own doing, and the next one's time is known, so it sleeps until then (the ports' poller wakes it
     * to the nanosecond, and sooner for a frame). A quarter of a millisecond after each of them kept a slow port's
     * thread polling half the time.
     */
    private static final long POLL_AFTER_WORK_NANOS = 50_000;

    /** What the strategy asks of the shard it idles. */
    interface Rest {
        /** Host nanoseconds at which the last turn read the clock. */
        long turnNanos();

        /** Whether a frame arrived from outside in the last turn, which keeps the thread polling longest. */
        boolean receivedLastTurn();

        /** Whether every port the shard has now times its frames by their arrival, not by the turn that read them. */
        boolean everyPortStamped();

        /** How long the thread may sleep now (host nanoseconds); 0: it must keep polling. */
        long sleepNanos();

        /** Sleeps in the ports' poller up to {@code nanos}, or until a frame or a wake-up. */
        void await(long nanos);
    }

    private final Rest rest;
    /**
     * How long the thread keeps polling after the last frame its ports received before it may sleep
     * ({@code realtime.pollAfterTrafficUs}). At the default 10 ms the next frame of a TCP flow, a burst, or a ping or
     * keepalive paced a few milliseconds apart comes within it and is served without the cost of a wake-up (on a
     * virtual machine, 0.1 to 0.2 ms a ping), so traffic above 100 frames/s keeps the thread polling; at 250 µs, pings
     * 5 ms apart crossed at a third of a minimal C forwarder's speed. At 0 it sleeps as soon as a turn finds nothing,
     * and polls no longer after other work either: less CPU a frame at a steady load, a wake-up's latency a burst.
     */
    private final long pollAfterTrafficNanos;
    private final long pollAfterWorkNanos;
    private long lastWorkNanos;
    private long lastTrafficNanos;

    /** The thread polls {@code pollAfterTrafficNanos} after its last frame. */
    PollThenSleep(final Rest rest, final long pollAfterTrafficNanos) {
        this.rest = rest;
        this.pollAfterTrafficNanos = pollAfterTrafficNanos;
        // A window after traffic shorter than the one after other work bounds it too: forwarding a frame is work.
        this.pollAfterWorkNanos = Math.min(POLL_AFTER_WORK_NANOS, pollAfterTrafficNanos);
    }

    @Override
    public void idle(final int workCount) {
        if (workCount > 0) {
            lastWorkNanos = rest.turnNanos();
            if (rest.receivedLastTurn()) {
                lastTrafficNanos = lastWorkNanos;
            }
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        final long now = rest.turnNanos();
        if (now - lastWorkNanos >= pollAfterWorkNanos && now - lastTrafficNanos >= pollAfterTrafficNanos) {
            final long sleep = rest.sleepNanos();
            if (sleep > 0) {
                rest.await(sleep);
            }
        }
    }

    @Override
    public void reset() {
    }
}
