package io.trimswitch.dataplane.util;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimedFifosTest {
    @Test
    void aTimedIntFifoGivesBackWhatItWasGivenInOrderAcrossGrowthAndWrapping() {
        final TimedIntFifo fifo = new TimedIntFifo(2);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 50; round++) {
            // Add three, take two: the ring wraps and grows while it holds entries.
            for (int i = 0; i < 3; i++) {
                fifo.add(1_000L * next, next);
                next++;
            }
            for (int i = 0; i < 2; i++) {
                assertEquals(1_000L * expected, fifo.headTime());
                assertEquals(expected, fifo.removeHead());
                expected++;
            }
        }
        assertEquals(next - expected, fifo.size());
        fifo.clear();
        assertTrue(fifo.isEmpty());
    }

    @Test
    void aFifoOfPairsKeepsBothValuesOfEachEntryTogetherAcrossGrowthAndWrapping() {
        final TimedIntFifo fifo = TimedIntFifo.ofPairs(2);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 3; i++) {
                fifo.add(7L * next, next, -next);
                next++;
            }
            for (int i = 0; i < 2; i++) {
                assertEquals(7L * expected, fifo.headTime());
                assertEquals(expected, fifo.headFirst());
                assertEquals(-expected, fifo.headSecond());
                fifo.removeHead();
                expected++;
            }
        }
        assertEquals(next - expected, fifo.size());
        fifo.clear();
        assertTrue(fifo.isEmpty());
    }
}
