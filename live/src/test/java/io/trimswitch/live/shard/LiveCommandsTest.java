package io.trimswitch.live.shard;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.IngressLinks;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a shard changes when it carries out new settings: what it owns, and nothing another shard owns. */
class LiveCommandsTest {
    private final Settings from = Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2));
    private final Settings to = from.withFabric(x -> x.withPortRateGbps(10));
    private final PacketPool pool = new PacketPool(2 * PacketPool.SLOTS_PER_SLAB);
    private final ShardedDataplane dataplane = new ShardedDataplane(from, pool, 2,
        new int[] {PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB}, CounterRegistry.inMemory(ShardedDataplane.counters(from, 2)),
        AssembledSwitch.defaultForwarding(from), () -> new RunRecorder(0, 16), false);

    @Test
    void aShardRetunesTheEgressPortsItOwnsAndNoOtherShards() {
        final LinkRate[] rates = new LinkRate[from.portCount()];
        java.util.Arrays.fill(rates, new LinkRate(from.portRateBps(0)));
        new LiveCommands.Retune(dataplane, 0, new IngressLinks(rates), from, to).carryOut();
        // Ports 0 and 1 are pipeline 0's, on shard 0; ports 2 and 3 pipeline 1's, on shard 1.
        assertEquals(10e9, dataplane.assembly().port(0).rate().bitsPerSecond(), 1);
        assertEquals(10e9, dataplane.assembly().port(1).rate().bitsPerSecond(), 1);
        assertEquals(100e9, dataplane.assembly().port(2).rate().bitsPerSecond(), 1, "shard 1's port, changed by shard 0");

        new LiveCommands.Retune(dataplane, 1, new IngressLinks(rates), from, to).carryOut();
        assertEquals(10e9, dataplane.assembly().port(3).rate().bitsPerSecond(), 1);
    }

    @Test
    void aShardsIngressLinksPaceAtTheNewRate() {
        final LinkRate[] rates = new LinkRate[from.portCount()];
        java.util.Arrays.fill(rates, new LinkRate(from.portRateBps(0)));
        final IngressLinks links = new IngressLinks(rates);
        new LiveCommands.Retune(dataplane, 0, links, from, to).carryOut();
        links.arrival(0, 1250, 0);
        // Behind it, 1250 bytes at 10 Gb/s take 1 µs more to arrive whole.
        assertEquals(1_000_000, links.arrival(0, 1250, 0));
    }
}
