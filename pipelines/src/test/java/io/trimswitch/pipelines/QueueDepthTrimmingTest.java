package io.trimswitch.pipelines;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueDepthTrimmingTest {
    private final int[] depth = new int[4];

    @Test
    void withAFreshReadAPacketIsTrimmedExactlyWhenTheQueueIsAtTheThreshold() {
        final QueueDepthTrimming trimming = new QueueDepthTrimming(4, port -> depth[port], 16, 0);
        depth[1] = 15;
        assertFalse(trimming.shouldTrim(1, 0, 1500, 0));
        depth[1] = 16;
        assertTrue(trimming.shouldTrim(1, 0, 1500, 0));
    }

    @Test
    void theReadMissesThePacketsAdmittedTowardsThePortThatAreStillInTheLaterStages() {
        // Two pipelines × two stages after the read: the last four decisions are not in the queue yet.
        final QueueDepthTrimming trimming = new QueueDepthTrimming(4, port -> depth[port], 16, 4);
        depth[2] = 16;
        assertTrue(trimming.shouldTrim(2, 0, 1500, 0), "nothing in flight: the read is the depth");
        depth[2] = 12;
        for (int i = 0; i < 3; i++) {
            assertFalse(trimming.shouldTrim(2, 0, 1500, 0));
            depth[2]++;
        }
        // The queue holds 15 now, three of them admitted in the stages the read does not see.
        assertEquals(12, trimming.readDepth(2));
        depth[2] = 17;
        assertFalse(trimming.shouldTrim(2, 0, 1500, 0), "a stale read of 14 lets a packet through to a full queue");
        assertEquals(13, trimming.readDepth(2), "four admitted packets are now in flight");
        // Other ports' packets move the window on: once they fill the stages, the read is fresh again.
        for (int i = 0; i < 4; i++) {
            trimming.shouldTrim(3, 0, 1500, 0);
        }
        assertEquals(17, trimming.readDepth(2));
        assertTrue(trimming.shouldTrim(2, 0, 1500, 0));
    }

    @Test
    void aResetForgetsWhatWasInFlight() {
        final QueueDepthTrimming trimming = new QueueDepthTrimming(4, port -> depth[port], 16, 8);
        depth[0] = 10;
        trimming.shouldTrim(0, 0, 1500, 0);
        trimming.reset();
        assertEquals(10, trimming.readDepth(0));
    }

    @Test
    void theThresholdIsAtLeastOnePacket() {
        assertThrows(IllegalArgumentException.class, () -> new QueueDepthTrimming(4, port -> 0, 0, 4));
    }
}
