package io.trimswitch.interfaces;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AF_PACKET's wall-clock receive stamps, turned into the monotonic host time the switch runs on. */
class KernelClocksTest {
    @Test
    void aWallClockStampIsMovedBackByHowFarTheWallClockIsAhead() {
        assertEquals(2_500_000_250L, KernelClocks.monotonicAt(1_700_000_001L, 500_000_250L, 1_699_999_999_000_000_000L));
    }

    @Test
    void aStampTakenNowReadsAsSystemNanoTimeNow() {
        try (Arena arena = Arena.ofConfined()) {
            final KernelClocks clocks = new KernelClocks(arena);
            clocks.sample();
            final long before = System.nanoTime();
            final java.time.Instant wall = java.time.Instant.now();
            final long after = System.nanoTime();
            final long converted = clocks.monotonicAt(wall.getEpochSecond(), wall.getNano());
            // Within a few ms: the wall clock's own reading, and a slew between the two reads, are all that separate them.
            assertTrue(converted > before - 5_000_000 && converted < after + 5_000_000, converted + " not near " + before);
        }
    }
}
