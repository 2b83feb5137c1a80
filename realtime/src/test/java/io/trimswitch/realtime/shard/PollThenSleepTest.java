package io.trimswitch.realtime.shard;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code realtime.idle: poll}'s window after traffic where {@code realtime.pollAfterTrafficUs} is set, or a shard has a port without stamps, on turns whose time the test moves: when the thread first sleeps. */
class PollThenSleepTest {
    private static final long MAY_SLEEP_NANOS = RecordingRest.MAY_SLEEP_NANOS;

    private final RecordingRest shard = new RecordingRest(1_000_000_000L, () -> true);

    private PollThenSleep policy(final long pollAfterTrafficNanos) {
        return new PollThenSleep(shard, pollAfterTrafficNanos);
    }

    /** A turn that received a frame, then {@code empty} turns each {@code stepNanos} apart. */
    private void trafficThenEmptyTurns(final PollThenSleep policy, final int empty, final long stepNanos) {
        shard.received = true;
        policy.idle(1);
        shard.received = false;
        for (int turn = 0; turn < empty; turn++) {
            shard.now += stepNanos;
            policy.idle(0);
        }
    }

    @Test
    void aZeroWindowSleepsAtTheFirstEmptyTurnAfterTraffic() {
        final PollThenSleep policy = policy(0);
        shard.received = true;
        policy.idle(1);
        shard.received = false;
        policy.idle(0);
        assertEquals(List.of(MAY_SLEEP_NANOS), shard.sleeps);
    }

    @Test
    void aTenMillisecondWindowPollsTenMillisecondsAfterTheLastFrame() {
        final PollThenSleep policy = policy(10_000_000);
        trafficThenEmptyTurns(policy, 9_999, 1_000);
        assertEquals(List.of(), shard.sleeps, "polled for 9.999 ms after the frame");
        shard.now += 1_000;
        policy.idle(0);
        assertEquals(List.of(MAY_SLEEP_NANOS), shard.sleeps, "sleeps at 10 ms");
    }

    @Test
    void aZeroWindowSleepsAtTheFirstEmptyTurnAfterForwardingToo() {
        final PollThenSleep policy = policy(0);
        trafficThenEmptyTurns(policy, 0, 0);
        policy.idle(1);
        policy.idle(0);
        assertEquals(List.of(MAY_SLEEP_NANOS), shard.sleeps);
    }

    @Test
    void aTenMillisecondWindowStillPollsFiftyMicrosecondsAfterOtherWork() {
        final PollThenSleep policy = policy(10_000_000);
        policy.idle(1);
        shard.now += 49_000;
        policy.idle(0);
        assertEquals(List.of(), shard.sleeps, "49 µs after a departure");
        shard.now += 1_000;
        policy.idle(0);
        assertEquals(List.of(MAY_SLEEP_NANOS), shard.sleeps, "50 µs after it");
    }
}
