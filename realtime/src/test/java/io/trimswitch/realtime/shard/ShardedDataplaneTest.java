package io.trimswitch.realtime.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shards of a live switch and what lies between them: who owns which port, and whose buffer goes back where. */
class ShardedDataplaneTest {
    private static final Settings SETTINGS = Settings.DEFAULTS.withRealtime(x -> x.withDilation(1));
    private static final int SHARDS = 3;

    private final PacketPool pool = new PacketPool(SHARDS * PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(SETTINGS, pool, SHARDS,
        new int[] {PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB},
        CounterRegistry.inMemory(ShardedDataplane.counters(SETTINGS, SHARDS)), AssembledSwitch.defaultForwarding(SETTINGS),
        () -> new RunRecorder(0, 16), false, new CachedNanoClock());

    @Test
    void eachPortBelongsToTheShardOfItsPipelineAndToNoOther() {
        for (int port = 0; port < SETTINGS.portCount(); port++) {
            final int owner = dataplane.assembly().pipelineOf(port) % SHARDS;
            assertEquals(owner, dataplane.shardOf(port), "port " + port);
            for (int shard = 0; shard < SHARDS; shard++) {
                assertEquals(shard == owner, dataplane.shard(shard).owns(port), "port " + port + " on shard " + shard);
            }
        }
    }

    @Test
    void aBufferFreedOnAnyThreadGoesBackToThePartitionItCameFrom() {
        final int handle = dataplane.shard(1).allocate();
        assertEquals(1, dataplane.shard(1).buffersInUse());
        dataplane.release(handle);
        assertEquals(0, dataplane.shard(1).buffersInUse());
        assertEquals(0, dataplane.shard(0).buffersInUse());
        assertEquals(0, dataplane.shard(2).buffersInUse());
    }

    @Test
    void aPartitionsBuffersAreAllItsOwnUntilItRunsOut() {
        int taken = 0;
        while (dataplane.shard(2).allocate() != PacketPool.NO_PACKET) {
            taken++;
        }
        assertEquals(PacketPool.SLOTS_PER_SLAB, taken);
        assertEquals(0, dataplane.shard(0).buffersInUse(), "another shard's partition is untouched");
        assertTrue(dataplane.shard(0).allocate() != PacketPool.NO_PACKET);
    }

    @Test
    void whatAStoppedSwitchStillHeldIsHandedOutOnce() {
        final PipelineShard shard = dataplane.shard(0);
        final int handle = shard.allocate();
        pool.length(handle, 64);
        shard.arrive(shard.ownPorts()[0], handle, Long.MAX_VALUE - 1);
        final int[] inside = {0};
        dataplane.drainTo(held -> {
            inside[0]++;
            dataplane.release(held);
        });
        assertEquals(1, inside[0]);
        dataplane.drainTo(held -> inside[0]++);
        assertEquals(1, inside[0], "handed out twice");
        assertEquals(0, shard.buffersInUse());
    }
}
