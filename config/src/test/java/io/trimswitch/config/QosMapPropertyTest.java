package io.trimswitch.config;

import io.trimswitch.dataplane.packet.TrimSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QosMapPropertyTest {
    private static final int MIN_QUEUES = 1;
    private static final int MAX_QUEUES = 8;
    private static final int DRAWN_CASES = 200;

    /** Every queue count with the seeds at the ends of a long and zero, then cases drawn from a fixed seed. */
    static Stream<Arguments> queuesAndSeeds() {
        final Stream.Builder<Arguments> cases = Stream.builder();
        for (int queues = MIN_QUEUES; queues <= MAX_QUEUES; queues++) {
            for (final long seed : new long[] {0, Long.MIN_VALUE, Long.MAX_VALUE}) {
                cases.add(Arguments.of(queues, seed));
            }
        }
        final SplittableRandom draw = new SplittableRandom(0x51A7E_0F_05L);
        for (int i = 0; i < DRAWN_CASES; i++) {
            cases.add(Arguments.of(draw.nextInt(MIN_QUEUES, MAX_QUEUES + 1), draw.nextLong()));
        }
        return cases.build();
    }

    /**
     * For any maps that validate, every DSCP lands in the queue its class maps to, and is trimmable exactly when that
     * queue trims (the trimmed DSCP and NO_TRIM aside).
     */
    @ParameterizedTest(name = "{0} queues, seed {1}")
    @MethodSource("queuesAndSeeds")
    void everyDscpGoesToItsClassesQueueAndIsTrimmableExactlyWhenThatQueueTrims(final int queues, final long seed) {
        final Random random = new Random(seed);
        final java.util.List<Settings.Queue> list = new java.util.ArrayList<>();
        for (int queue = 0; queue < queues; queue++) {
            list.add(Settings.Queue.DEFAULTS.withDiscard(random.nextBoolean() ? Settings.Discard.TRIM : Settings.Discard.DROP));
        }
        final Map<Integer, Integer> dscpToTc = new java.util.HashMap<>();
        for (int i = 0; i < 20; i++) {
            dscpToTc.put(random.nextInt(64), random.nextInt(8));
        }
        final Map<Integer, Integer> tcToQueue = new java.util.HashMap<>();
        for (int tc = 0; tc < 8; tc++) {
            tcToQueue.put(tc, random.nextInt(queues));
        }
        final Settings edited = Settings.DEFAULTS.withQos(q -> q.withQueues(list).withDscpToTc(dscpToTc).withTcToQueue(tcToQueue));
        final Settings settings = edited.validate();
        final TrimSettings trim = settings.trimSettings();
        final String replay = queues + " queues, seed " + seed + ": ";
        for (int dscp = 0; dscp < 64; dscp++) {
            final int tc = edited.qos().dscpToTc().getOrDefault(dscp, 0);
            final int queue = edited.qos().tcToQueue().get(tc);
            assertEquals(queue, trim.queueOf(dscp), replay + "DSCP " + dscp);
            final boolean trims = edited.qos().queues().get(queue).discard() == Settings.Discard.TRIM;
            assertEquals(trims && dscp != 11, trim.isTrimmableDscp(dscp),
                replay + "DSCP " + dscp + " in queue " + queue + " " + Map.of("trims", trims));
        }
    }
}
