package io.trimswitch.config;

import io.trimswitch.dataplane.packet.TrimSettings;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QosMapPropertyTest {
    /**
     * For any maps that validate, every DSCP lands in the queue its class maps to, and is trimmable exactly when that
     * queue trims (the trimmed DSCP and NO_TRIM aside).
     */
    @Property(tries = 200)
    void everyDscpGoesToItsClassesQueueAndIsTrimmableExactlyWhenThatQueueTrims(
        @ForAll @IntRange(min = 1, max = 8) final int queues, @ForAll final long seed) {
        final Random random = new Random(seed);
        final SwitchSettings edited = new SwitchSettings();
        for (int queue = 0; queue < queues; queue++) {
            final SwitchSettings.Queue q = new SwitchSettings.Queue();
            q.discard = random.nextBoolean() ? "trim" : "drop";
            edited.qos.queues.add(q);
        }
        for (int i = 0; i < 20; i++) {
            edited.qos.dscpToTc.put(random.nextInt(64), random.nextInt(8));
        }
        for (int tc = 0; tc < 8; tc++) {
            edited.qos.tcToQueue.put(tc, random.nextInt(queues));
        }
        final Settings settings = edited.validate();
        final TrimSettings trim = settings.trimSettings();
        for (int dscp = 0; dscp < 64; dscp++) {
            final int tc = edited.qos.dscpToTc.getOrDefault(dscp, 0);
            final int queue = edited.qos.tcToQueue.get(tc);
            assertEquals(queue, trim.queueOf(dscp), "DSCP " + dscp);
            final boolean trims = "trim".equals(edited.qos.queues.get(queue).discard);
            assertEquals(trims && dscp != 11, trim.isTrimmableDscp(dscp), "DSCP " + dscp + " in queue " + queue + " " + Map.of("trims", trims));
        }
    }
}
