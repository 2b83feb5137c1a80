package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataQueueSchedulerPropertyTest {
    private static final int MIN_WEIGHT = 1;
    private static final int MAX_WEIGHT = 8;
    private static final int MIN_DWRR_QUEUES = 2;
    private static final int MAX_DWRR_QUEUES = 4;
    private static final int MIN_SIZE = 64;
    private static final int MAX_SIZE = 1500;
    private static final int QUEUES = 4;
    private static final int MAX_OTHERS = 5;

    /** The ends of every range together: fewest and most queues, lightest and heaviest weights, smallest and largest packets. */
    static Stream<Arguments> edgeWeightsAndSizes() {
        final int[][] weights = {{MIN_WEIGHT, MIN_WEIGHT}, {MAX_WEIGHT, MAX_WEIGHT}, {MIN_WEIGHT, MAX_WEIGHT}, {MAX_WEIGHT, MIN_WEIGHT},
            {MIN_WEIGHT, MIN_WEIGHT, MIN_WEIGHT, MIN_WEIGHT}, {MAX_WEIGHT, MAX_WEIGHT, MAX_WEIGHT, MAX_WEIGHT},
            {MIN_WEIGHT, MAX_WEIGHT, MIN_WEIGHT, MAX_WEIGHT}};
        final int[][] sizes = {{MIN_SIZE, MIN_SIZE, MIN_SIZE, MIN_SIZE}, {MAX_SIZE, MAX_SIZE, MAX_SIZE, MAX_SIZE},
            {MIN_SIZE, MAX_SIZE, MIN_SIZE, MAX_SIZE}, {MAX_SIZE, MIN_SIZE, MAX_SIZE, MIN_SIZE}};
        return Arrays.stream(weights).flatMap(w -> Arrays.stream(sizes).map(s -> Arguments.of(w, s)));
    }

    @ParameterizedTest(name = "weights {0}, sizes {1}")
    @MethodSource("edgeWeightsAndSizes")
    void busyDwrrQueuesShareBytesByWeightAtTheEndsOfTheRanges(final int[] weights, final int[] sizes) {
        assertBusyQueuesShareBytesByWeight(weights, sizes, "");
    }

    /** Seeds drawn from a fixed seed, so that every run tries the same cases. */
    static LongStream sharingSeeds() {
        return new SplittableRandom(0xD3_77_4B_0BL).longs(60);
    }

    /**
     * However the weights and packet sizes are drawn, busy dwrr queues share the bytes sent in proportion to their
     * weights, within one quantum per queue and round.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("sharingSeeds")
    void busyDwrrQueuesShareBytesByWeight(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] weights = random.ints(random.nextInt(MIN_DWRR_QUEUES, MAX_DWRR_QUEUES + 1), MIN_WEIGHT, MAX_WEIGHT + 1).toArray();
        final int[] sizes = random.ints(QUEUES, MIN_SIZE, MAX_SIZE + 1).toArray();
        assertBusyQueuesShareBytesByWeight(weights, sizes, "seed " + seed + ", ");
    }

    private static void assertBusyQueuesShareBytesByWeight(final int[] weight, final int[] sizes, final String replay) {
        final int queues = weight.length;
        final PacketPool pool = new PacketPool(queues * 4096);
        final HandleQueue[] data = new HandleQueue[queues];
        final boolean[] strict = new boolean[queues];
        for (int queue = 0; queue < queues; queue++) {
            data[queue] = new PacketFifo(4096);
            for (int i = 0; i < 4096; i++) {
                final int handle = pool.allocate();
                pool.length(handle, sizes[queue]);
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
        final int totalWeight = Arrays.stream(weight).sum();
        final long total = Arrays.stream(bytes).sum();
        final long rounds0 = total / ((long) totalWeight * DataQueueScheduler.QUANTUM_BYTES) + 1;
        for (int queue = 0; queue < queues; queue++) {
            final double fair = (double) total * weight[queue] / totalWeight;
            assertTrue(Math.abs(bytes[queue] - fair) <= 2.0 * weight[queue] * DataQueueScheduler.QUANTUM_BYTES + 1500,
                replay + "queue " + queue + " of weights " + Arrays.toString(weight) + " sizes " + Arrays.toString(sizes) + ": "
                    + bytes[queue] + " bytes, fair " + fair + " over " + rounds0 + " rounds");
        }
        assertTrue(rounds > 0, replay + "weights " + Arrays.toString(weight) + " sizes " + Arrays.toString(sizes));
    }

    /** Every strict queue with every number of packets in the others. */
    static Stream<Arguments> strictQueueAndOthers() {
        return LongStream.range(0, QUEUES).boxed()
            .flatMap(strictQueue -> LongStream.rangeClosed(1, MAX_OTHERS).mapToObj(others -> Arguments.of(strictQueue.intValue(), (int) others)));
    }

    /** A strict queue with a packet always goes first, whatever the dwrr queues hold. */
    @ParameterizedTest(name = "strict queue {0}, {1} packets in each other")
    @MethodSource("strictQueueAndOthers")
    void aStrictQueueWithAPacketAlwaysGoesFirst(final int strictQueue, final int others) {
        final PacketPool pool = new PacketPool(64);
        final HandleQueue[] data = new HandleQueue[QUEUES];
        final boolean[] strict = new boolean[QUEUES];
        strict[strictQueue] = true;
        for (int queue = 0; queue < QUEUES; queue++) {
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

    static LongStream strictSeeds() {
        return new SplittableRandom(0x57_81C7L).longs(100);
    }

    /**
     * The same with the dwrr queues' weights and packet sizes drawn too, and the scheduler part-way through its
     * rounds when the strict queue's packet arrives.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("strictSeeds")
    void aStrictQueueWithAPacketGoesFirstWhateverTheDwrrQueuesHoldAndHaveSent(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final int strictQueue = random.nextInt(QUEUES);
        final int others = random.nextInt(1, MAX_OTHERS + 1);
        final PacketPool pool = new PacketPool(64);
        final HandleQueue[] data = new HandleQueue[QUEUES];
        final boolean[] strict = new boolean[QUEUES];
        strict[strictQueue] = true;
        final int[] weights = random.ints(QUEUES, MIN_WEIGHT, MAX_WEIGHT + 1).toArray();
        for (int queue = 0; queue < QUEUES; queue++) {
            data[queue] = new PacketFifo(16);
            for (int i = 0; queue != strictQueue && i < others; i++) {
                final int handle = pool.allocate();
                pool.length(handle, random.nextInt(MIN_SIZE, MAX_SIZE + 1));
                data[queue].offer(handle);
            }
        }
        final DataQueueScheduler scheduler = new DataQueueScheduler(strict, weights);
        for (int sent = random.nextInt(3); sent > 0; sent--) {
            pool.free(data[scheduler.choose(data, pool, Long.MAX_VALUE)].poll());
        }
        final int handle = pool.allocate();
        pool.length(handle, random.nextInt(MIN_SIZE, MAX_SIZE + 1));
        data[strictQueue].offer(handle);
        assertEquals(strictQueue, scheduler.choose(data, pool, Long.MAX_VALUE),
            "seed " + seed + ": strict queue " + strictQueue + ", weights " + Arrays.toString(weights));
    }
}
