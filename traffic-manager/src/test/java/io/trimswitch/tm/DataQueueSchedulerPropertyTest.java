package io.trimswitch.tm;

import io.trimswitch.dataplane.packet.PacketPool;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataQueueSchedulerPropertyTest {
    /**
     * However the weights and packet sizes are drawn, busy dwrr queues share the bytes sent in proportion to their
     * weights, within one quantum per queue and round.
     */
    @Property(tries = 60)
    void busyDwrrQueuesShareBytesByWeight(
        @ForAll @Size(min = 2, max = 4) final List<@IntRange(min = 1, max = 8) Integer> weights,
        @ForAll @Size(min = 4, max = 4) final List<@IntRange(min = 64, max = 1500) Integer> sizes) {
        final int queues = weights.size();
        final PacketPool pool = new PacketPool(queues * 4096);
        final HandleQueue[] data = new HandleQueue[queues];
        final boolean[] strict = new boolean[queues];
        final int[] weight = new int[queues];
        for (int queue = 0; queue < queues; queue++) {
            weight[queue] = weights.get(queue);
            data[queue] = new PacketFifo(4096);
            for (int i = 0; i < 4096; i++) {
                final int handle = pool.allocate();
                pool.length(handle, sizes.get(queue));
                data[queue].offer(handle);
            }
        }
        final DataQueueScheduler scheduler = new DataQueueScheduler(strict, weight);
        final long[] bytes = new long[queues];
        int rounds = 0;
        // Until one queue is nearly empty: all stay busy throughout.
        while (true) {
            final int queue = scheduler.choose(data, pool, Long.MAX_VALUE);
            final int handle = data[queue].poll();
            bytes[queue] += pool.length(handle);
            pool.free(handle);
            if (data[queue].size() < 16) {
                break;
            }
            rounds++;
        }
        final int totalWeight = weight.length == 0 ? 1 : java.util.Arrays.stream(weight).sum();
        final long total = java.util.Arrays.stream(bytes).sum();
        final long rounds0 = total / ((long) totalWeight * DataQueueScheduler.QUANTUM_BYTES) + 1;
        for (int queue = 0; queue < queues; queue++) {
            final double fair = (double) total * weight[queue] / totalWeight;
            assertTrue(Math.abs(bytes[queue] - fair) <= 2.0 * weight[queue] * DataQueueScheduler.QUANTUM_BYTES + 1500,
                "queue " + queue + " of weights " + weights + " sizes " + sizes + ": " + bytes[queue] + " bytes, fair " + fair + " over " + rounds0 + " rounds");
        }
        assertTrue(rounds > 0);
    }

    /** A strict queue with a packet always goes first, whatever the dwrr queues hold. */
    @Property(tries = 100)
    void aStrictQueueWithAPacketAlwaysGoesFirst(
        @ForAll @IntRange(min = 0, max = 3) final int strictQueue, @ForAll @IntRange(min = 1, max = 5) final int others) {
        final PacketPool pool = new PacketPool(64);
        final HandleQueue[] data = new HandleQueue[4];
        final boolean[] strict = new boolean[4];
        strict[strictQueue] = true;
        for (int queue = 0; queue < 4; queue++) {
            data[queue] = new PacketFifo(8);
            final int count = queue == strictQueue ? 1 : others;
            for (int i = 0; i < count; i++) {
                final int handle = pool.allocate();
                pool.length(handle, 1500);
                data[queue].offer(handle);
            }
        }
        assertEquals(strictQueue, new DataQueueScheduler(strict, new int[] {1, 1, 1, 1}).choose(data, pool, Long.MAX_VALUE));
    }
}
