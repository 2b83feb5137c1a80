package io.trimswitch.realtime.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A shard as an idle policy sees it, for the policies' tests: turns whose time the test moves, whether the last one
 * received a frame, a sleep of at most {@link #MAY_SLEEP_NANOS} whenever asked, and each sleep taken, recorded.
 */
final class RecordingRest implements PollThenSleep.Rest {
    static final long MAY_SLEEP_NANOS = 1_000_000;
    private final BooleanSupplier everyPortStamped;
    boolean received;
    long now;
    final List<Long> sleeps = new ArrayList<>();

    RecordingRest(final long startNanos, final BooleanSupplier everyPortStamped) {
        this.now = startNanos;
        this.everyPortStamped = everyPortStamped;
    }

    @Override
    public long turnNanos() {
        return now;
    }

    @Override
    public boolean receivedLastTurn() {
        return received;
    }

    @Override
    public boolean everyPortStamped() {
        return everyPortStamped.getAsBoolean();
    }

    @Override
    public long sleepNanos() {
        return MAY_SLEEP_NANOS;
    }

    @Override
    public void await(final long nanos) {
        sleeps.add(nanos);
    }
}
