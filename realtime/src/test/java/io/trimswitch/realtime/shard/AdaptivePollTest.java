package io.trimswitch.realtime.shard;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code realtime.idle: poll}'s adaptive default, on turns whose time the test moves: a steady load's bursts and an idle
 * thread sleep at once, a frame after a quiet spell is followed by polling for its answer.
 */
class AdaptivePollTest {
    private static final long MAY_SLEEP_NANOS = RecordingRest.MAY_SLEEP_NANOS;
    private static final long MICROS = 1_000;

    private final RecordingRest shard = new RecordingRest(-5_000_000_000L, () -> true);
    private final AdaptivePoll policy = new AdaptivePoll(shard);

    /** After {@code gapNanos}: a turn that receives a frame and forwards it. */
    private void frameAfter(final long gapNanos) {
        shard.now += gapNanos;
        shard.received = true;
        policy.idle(1);
        shard.received = false;
    }

    /** After {@code stepNanos}: a turn that finds nothing; whether the thread slept then. */
    private boolean emptyTurnSlept(final long stepNanos) {
        final int before = shard.sleeps.size();
        shard.now += stepNanos;
        policy.idle(0);
        return shard.sleeps.size() > before;
    }

    @Test
    void anIdleThreadSleepsAtItsFirstTurn() {
        assertEquals(true, emptyTurnSlept(0));
        assertEquals(List.of(MAY_SLEEP_NANOS), shard.sleeps);
    }

    @Test
    void aSteadyLoadsBurstsFiftyMicrosecondsApartSleepAfterEachBurst() {
        frameAfter(0);
        for (int burst = 0; burst < 200; burst++) {
            frameAfter(50 * MICROS);
            frameAfter(MICROS);
        }
        // Past the first frame's answer window, the thread sleeps at the first empty turn after each burst.
        for (int burst = 0; burst < 10; burst++) {
            frameAfter(50 * MICROS);
            assertEquals(true, emptyTurnSlept(MICROS), "burst " + burst);
        }
    }

    @Test
    void aFrameAfterAQuietSpellIsFollowedByPollingForItsAnswer() {
        frameAfter(0);
        for (int turn = 1; turn < 100; turn++) {
            assertEquals(false, emptyTurnSlept(MICROS), "turn " + turn + " µs after the first frame");
        }
        assertEquals(true, emptyTurnSlept(MICROS), "100 µs after it");
        frameAfter(899 * MICROS);
        assertEquals(true, emptyTurnSlept(MICROS), "a frame 0.999 ms after the last is part of a stream");
        frameAfter(999 * MICROS);
        assertEquals(false, emptyTurnSlept(MICROS), "a frame 1 ms after the last starts an exchange");
    }

    @Test
    void theAnswerEndsNoWindowEarlyAndOpensNoNewOne() {
        frameAfter(0);
        frameAfter(5 * MAY_SLEEP_NANOS);
        frameAfter(30 * MICROS);
        assertEquals(false, emptyTurnSlept(69 * MICROS), "99 µs after the request");
        assertEquals(true, emptyTurnSlept(MICROS), "100 µs after the request, 70 after its answer");
    }

    @Test
    void otherWorkKeepsNoWindowOpen() {
        policy.idle(1);
        assertEquals(true, emptyTurnSlept(MICROS), "a departure is no frame received");
    }
}
