package io.trimswitch.live.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.pipelines.ForwardingStage;
import io.trimswitch.realtime.shard.CommandQueue;
import io.trimswitch.realtime.shard.FileDescriptorWatch;
import io.trimswitch.realtime.shard.PortList;
import io.trimswitch.realtime.shard.ShardSleep;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two shards of a bridging live switch learn from each other only through their command queues: what one learns, the
 * other's copy learns on its own thread at the start of its next turn, without being woken for it.
 */
class BridgeNewsTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long HOST_A = 0x0200_0000_000AL;
    private static final long HOST_B = 0x0200_0000_000BL;
    private static final Settings SETTINGS = Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2));

    private final PacketPool pool = new PacketPool(2 * PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(SETTINGS, pool, 2,
        new int[] {PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB}, CounterRegistry.inMemory(ShardedDataplane.counters(SETTINGS, 2)),
        AssembledSwitch.defaultForwarding(SETTINGS), () -> new RunRecorder(0, 16), false);
    /** Ports 0 and 1 on shard 0, ports 2 and 3 on shard 1; ten seconds' aging, so news comes again after five. */
    private final BridgeForwarding bridge = new BridgeForwarding(10 * SECOND, 1024, Map.of(), new int[] {0, 0, 1, 1}, new int[] {0, 1, 2, 3}, 2);
    private final CountedSleep[] sleeps = {new CountedSleep(), new CountedSleep()};

    BridgeNewsTest() {
        for (int shard = 0; shard < 2; shard++) {
            dataplane.shard(shard).ports(new PortList(SETTINGS.portCount(), sleeps[shard]));
            dataplane.shard(shard).go();
        }
        dataplane.clock().startIn(0);
        BridgeNews.between(bridge, new CommandQueue[] {dataplane.shard(0).commands(), dataplane.shard(1).commands()}, 10 * SECOND);
    }

    @Test
    void whatOneShardLearnsTheOtherLearnsOnItsOwnTurnWithoutBeingWoken() {
        forward(2, HOST_A, SECOND);
        assertEquals(2, bridge.bridge(1).lookup(HOST_A, SECOND), "shard 1 learned host A on its port 2");
        assertEquals(ForwardingStage.FLOOD, bridge.bridge(0).lookup(HOST_A, SECOND), "shard 0's copy is written on its thread only");
        assertEquals(0, sleeps[0].wakes, "news does not wake a shard: a frame does, and its commands come first");

        assertEquals(1, dataplane.shard(0).doWork(), "one piece of news carried out");
        assertEquals(2, bridge.bridge(0).lookup(HOST_A, SECOND), "so shard 0 sends host A's frames to port 2 rather than flood them");
        assertEquals(0, dataplane.shard(1).doWork(), "a shard tells itself nothing");
    }

    @Test
    void anAddressInUseIsToldAgainEveryHalfAgingTimeAndAtOnceWhenItMoves() {
        forward(2, HOST_A, SECOND);
        assertEquals(1, dataplane.shard(0).doWork());
        forward(2, HOST_A, 2 * SECOND);
        assertEquals(0, dataplane.shard(0).doWork(), "told a second ago");
        forward(2, HOST_A, 6 * SECOND + 1);
        assertEquals(1, dataplane.shard(0).doWork(), "five seconds on: told again, so shard 0's copy does not age it out");
        assertEquals(2, bridge.bridge(0).lookup(HOST_A, 15 * SECOND), "still known 14 s after it was first seen");
        forward(3, HOST_A, 7 * SECOND);
        assertEquals(1, dataplane.shard(0).doWork(), "moved to port 3: told at once");
        assertEquals(3, bridge.bridge(0).lookup(HOST_A, 7 * SECOND));
    }

    @Test
    void newsBeyondWhatMayWaitIsLostAndTheShardFloodsUntilToldAgain() {
        final CommandQueue queue = dataplane.shard(0).commands();
        for (int i = 0; i < CommandQueue.MOST_NEWS; i++) {
            assertTrue(queue.tell(() -> { }), "news " + i);
        }
        assertFalse(queue.tell(() -> { }), "one more is lost");
        forward(2, HOST_B, SECOND);
        for (int turn = 0; turn < CommandQueue.MOST_NEWS; turn++) {
            dataplane.shard(0).doWork();
        }
        assertEquals(ForwardingStage.FLOOD, bridge.bridge(0).lookup(HOST_B, SECOND), "its news found the queue full");
        assertTrue(queue.tell(() -> { }), "room again once the news that waited is carried out");
        dataplane.shard(0).doWork();
        forward(2, HOST_B, 7 * SECOND);
        dataplane.shard(0).doWork();
        assertEquals(2, bridge.bridge(0).lookup(HOST_B, 7 * SECOND), "told again half an aging time on");
    }

    /** Where a frame from {@code source} to host B's neighbour, in on {@code port} at {@code nanos}, goes. */
    private int forward(final int port, final long source, final long nanos) {
        final int handle = pool.allocate();
        final UnsafeBuffer frame = pool.buffer(handle);
        final int at = pool.offset(handle);
        for (int i = 0; i < 6; i++) {
            frame.putByte(at + i, (byte) (0x0200_0000_00FFL >>> (40 - 8 * i)));
            frame.putByte(at + 6 + i, (byte) (source >>> (40 - 8 * i)));
        }
        pool.length(handle, 64);
        pool.ingressPort(handle, port);
        pool.arrivalPicos(handle, nanos * 1000);
        final int egress = bridge.egressPort(pool, handle, 0);
        pool.free(handle);
        return egress;
    }

    /** A sleep that counts its wake-ups. */
    private static final class CountedSleep implements ShardSleep {
        int wakes;

        @Override
        public void await(final long nanos) {
        }

        @Override
        public void wake() {
            wakes++;
        }

        @Override
        public FileDescriptorWatch watch() {
            return ShardSleep.parked().watch();
        }
    }
}
