package io.trimswitch.live.capture;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.trafficmanager.EgressPort;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tap on a live shard's ports: each packet that leaves a port records how deep its port's queues were then, and the
 * gauges read the distribution without scanning it again while nothing left.
 */
class LiveTapTest {
    private static final Settings SETTINGS = Settings.DEFAULTS.withRealtime(x -> x.withDilation(1));

    private final PacketPool pool = new PacketPool(PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(SETTINGS, pool, 1, new int[] {pool.capacity()},
        CounterRegistry.inMemory(ShardedDataplane.counters(SETTINGS, 1)), AssembledSwitch.defaultForwarding(SETTINGS),
        () -> new RunRecorder(0, 16), false);
    private final LiveTap tap = new LiveTap(dataplane.assembly(), pool);
    private final EgressPort port = dataplane.assembly().port(2);

    LiveTapTest() {
        tap.watch(2);
    }

    /** Packet {@code handle} leaves port 2 while its data queue holds {@code waiting} packets and its header queue one. */
    private void departsBehind(final int waiting) {
        port.dataQueue().reset();
        port.headerQueue().reset();
        for (int i = 0; i < waiting; i++) {
            port.dataQueue().offer(dataplane.shard(0).allocate());
        }
        port.headerQueue().offer(dataplane.shard(0).allocate());
        tap.departed(2, dataplane.shard(0).allocate(), 1_000);
    }

    @Test
    void eachDepartureRecordsTheDepthOfItsPortsQueuesThen() {
        departsBehind(3);
        departsBehind(7);
        final Histogram data = tap.depths(2, true);
        assertEquals(2, data.getTotalCount());
        assertEquals(3, data.getMinValue());
        assertEquals(7, data.getMaxValue());
        assertEquals(1, tap.depths(2, false).getMaxValue(), "the header queue's depth, apart");
    }

    @Test
    void theGaugesReadPercentilesAndSkipTheScanWhileNothingLeft() {
        final double[] percentiles = {50, 100};
        final long[] values = {-1, -1};
        assertFalse(tap.depthsAt(2, true, percentiles, values), "nothing left yet");
        assertArrayEquals(new long[] {-1, -1}, values, "untouched");

        departsBehind(4);
        assertTrue(tap.depthsAt(2, true, percentiles, values));
        assertArrayEquals(new long[] {4, 4}, values);
        assertFalse(tap.depthsAt(2, true, percentiles, values), "the same distribution: not scanned again");

        departsBehind(10);
        assertTrue(tap.depthsAt(2, true, percentiles, values));
        assertEquals(10, values[1], "the distribution over the switch's life, not the last interval alone");
        assertEquals(4, values[0]);
    }
}
