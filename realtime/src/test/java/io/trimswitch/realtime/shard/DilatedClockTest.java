package io.trimswitch.realtime.shard;

import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Switch time read off the host clock: slowed by the dilation, zero at the start, still at the run's end. */
class DilatedClockTest {
    private final CachedNanoClock host = new CachedNanoClock();

    @Test
    void switchTimeRunsSlowerThanTheHostsByTheDilation() {
        final DilatedClock clock = new DilatedClock(host, 1000);
        clock.startIn(0);
        host.advance(1_000_000);
        // 1 ms of host time is 1 µs of switch time.
        assertEquals(1_000_000, clock.nowPicos());
        assertEquals(1_000_000, clock.hostNanos(1_000_000), "1 µs of switch time takes 1 ms of the host's");
    }

    @Test
    void aTurnsOneHostReadGivesItsSwitchTimeLaterToo() {
        final DilatedClock clock = new DilatedClock(host, 1);
        clock.startIn(0);
        host.advance(1234);
        final long turn = clock.hostNow();
        host.advance(5000);
        assertEquals(1_234_000, clock.picosAt(turn), "the turn's time, not the host's now");
        assertEquals(6_234_000, clock.nowPicos());
    }

    @Test
    void undilatedSwitchTimeIsTheHostsInPicoseconds() {
        final DilatedClock clock = new DilatedClock(host, 1);
        clock.startIn(0);
        host.advance(1234);
        assertEquals(1_234_000, clock.nowPicos());
    }

    @Test
    void switchTimeIsNegativeUntilItsStart() {
        final DilatedClock clock = new DilatedClock(host, 1);
        clock.startIn(500);
        host.advance(499);
        assertTrue(clock.nowPicos() < 0, "switch time before its start: " + clock.nowPicos());
        host.advance(1);
        assertEquals(0, clock.nowPicos());
    }

    @Test
    void switchTimeStandsStillAtTheRunsEndHoweverLateTheHost() {
        final DilatedClock clock = new DilatedClock(host, 1);
        clock.startIn(0);
        clock.endAt(5_000);
        host.advance(1_000_000);
        assertEquals(5_000, clock.nowPicos());
    }

    @Test
    void aDilationThatIsNotAPositiveNumberIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DilatedClock(host, 0));
        assertThrows(IllegalArgumentException.class, () -> new DilatedClock(host, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new DilatedClock(host, Double.POSITIVE_INFINITY));
    }
}
