package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataQueueSchedulerTest {
    private final PacketPool pool = new PacketPool(16384);

    private HandleQueue queueOf(final int packets, final int bytes) {
        final PacketFifo queue = new PacketFifo(packets);
        for (int i = 0; i < packets; i++) {
            final int handle = pool.allocate();
            pool.length(handle, bytes);
            queue.offer(handle);
        }
        return queue;
    }

    /** Serves {@code turns} packets and returns the bytes each queue sent. */
    private long[] serve(final DataQueueScheduler scheduler, final HandleQueue[] queues, final int turns) {
        final long[] bytes = new long[queues.length];
        for (int turn = 0; turn < turns; turn++) {
            final int queue = scheduler.choose(queues, pool, Long.MAX_VALUE);
            final int handle = queues[queue].poll();
            bytes[queue] += pool.length(handle);
            pool.free(handle);
        }
        return bytes;
    }

    @Test
    void dwrrSharesTheBytesByWeightWhateverThePacketSizes() {
        final DataQueueScheduler scheduler = new DataQueueScheduler(new boolean[] {false, false}, new int[] {1, 3});
        final HandleQueue[] queues = {queueOf(2000, 1500), queueOf(10000, 300)};
        final long[] bytes = serve(scheduler, queues, 3000);
        final double share = (double) bytes[1] / (bytes[0] + bytes[1]);
        assertEquals(0.75, share, 0.02, "weight 3 of 4: " + bytes[0] + " vs " + bytes[1] + " bytes");
    }

    @Test
    void aStrictQueueIsServedBeforeEveryDwrrQueueAndTheHigherStrictQueueFirst() {
        final DataQueueScheduler scheduler = new DataQueueScheduler(new boolean[] {false, true, true}, new int[] {1, 1, 1});
        final HandleQueue[] queues = {queueOf(5, 1500), queueOf(5, 1500), queueOf(5, 1500)};
        for (int turn = 0; turn < 5; turn++) {
            assertEquals(2, scheduler.choose(queues, pool, Long.MAX_VALUE));
            queues[2].poll();
        }
        for (int turn = 0; turn < 5; turn++) {
            assertEquals(1, scheduler.choose(queues, pool, Long.MAX_VALUE));
            queues[1].poll();
        }
        assertEquals(0, scheduler.choose(queues, pool, Long.MAX_VALUE));
    }

    @Test
    void aQueueThatWasEmptySavesNoCreditForABurst() {
        final DataQueueScheduler scheduler = new DataQueueScheduler(new boolean[] {false, false}, new int[] {1, 1});
        final HandleQueue busy = queueOf(2000, 1500);
        final HandleQueue idle = new PacketFifo(2000);
        final HandleQueue[] queues = {busy, idle};
        serve(scheduler, queues, 500);
        for (int i = 0; i < 1000; i++) {
            final int handle = pool.allocate();
            pool.length(handle, 1500);
            idle.offer(handle);
        }
        final long[] bytes = serve(scheduler, queues, 200);
        assertTrue(Math.abs(bytes[0] - bytes[1]) <= 2 * DataQueueScheduler.QUANTUM_BYTES,
            "equal weights share equally from the moment both have packets: " + bytes[0] + " vs " + bytes[1]);
    }

    @Test
    void withNothingQueuedThereIsNothingToChoose() {
        final DataQueueScheduler scheduler = new DataQueueScheduler(new boolean[] {false, true}, new int[] {1, 1});
        assertEquals(-1, scheduler.choose(new HandleQueue[] {new PacketFifo(4), new PacketFifo(4)}, pool, Long.MAX_VALUE));
    }

    @Test
    void everyQueueNeedsAWeightOfAtLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> new DataQueueScheduler(new boolean[] {false}, new int[] {0}));
    }
}
