package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterRegistry;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.live.shard.BridgeNews;
import io.trimswitch.pipelines.BridgeForwarding;
import io.trimswitch.realtime.shard.CommandQueue;
import io.trimswitch.realtime.shard.ShardedDataplane;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.record.RunRecorder;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;

/**
 * A bridging live switch's forwarding lookup per frame on one shard, in frames per second: the source learned, the
 * destination looked up, and what the shard must do to share what it learns with the other shards. Frames come from 16
 * hosts behind the shard's own ports to 16 hosts behind another shard's, all known: the steady state, where news is
 * only the repeat every half aging time. With one shard there is nothing to share: the baseline in the same run.
 */
@State(Scope.Thread)
public class BridgeLearningBenchmark extends SwitchBenchmark {
    static final int BURST = 1024;
    private static final int HOSTS = 16;
    private static final long AGING_NANOS = 300_000_000_000L;

    @Param({"1", "2"})
    public int shards;

    private final PacketPool pool = new PacketPool(BURST);
    private final int[] handles = new int[BURST];
    private BridgeForwarding forwarding;
    private long nowPicos;

    @Setup
    public void setUp() {
        final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2)).validate();
        // Ports 0 and 1 on shard 0; ports 2 and 3 on the other shard, or on shard 0 too when it is alone.
        forwarding = new BridgeForwarding(AGING_NANOS, 1024, Map.of(), new int[] {0, 0, shards - 1, shards - 1}, new int[] {0, 1, 2, 3}, shards);
        final ShardedDataplane dataplane = new ShardedDataplane(settings, new PacketPool(shards * PacketPool.SLOTS_PER_SLAB), shards,
            shards == 1 ? new int[] {PacketPool.SLOTS_PER_SLAB} : new int[] {PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB},
            CounterRegistry.inMemory(ShardedDataplane.counters(settings, shards)), AssembledSwitch.defaultForwarding(settings),
            () -> new RunRecorder(0, 16), false);
        final CommandQueue[] queues = new CommandQueue[shards];
        for (int shard = 0; shard < shards; shard++) {
            queues[shard] = dataplane.shard(shard).commands();
        }
        BridgeNews.between(forwarding, queues, AGING_NANOS);
        for (int host = 0; host < HOSTS; host++) {
            // Every destination known where the frames are looked up.
            forwarding.bridge(0).learn(far(host), 2 + host % 2, 0);
        }
        for (int i = 0; i < BURST; i++) {
            handles[i] = pool.allocate();
            final UnsafeBuffer frame = pool.buffer(handles[i]);
            final int at = pool.offset(handles[i]);
            final long source = 0x0200_0000_0100L + i % HOSTS;
            final long destination = far((i / HOSTS) % HOSTS);
            for (int b = 0; b < 6; b++) {
                frame.putByte(at + b, (byte) (destination >>> (40 - 8 * b)));
                frame.putByte(at + 6 + b, (byte) (source >>> (40 - 8 * b)));
            }
            pool.length(handles[i], 64);
            pool.ingressPort(handles[i], i % HOSTS % 2);
        }
    }

    private static long far(final int host) {
        return 0x0200_0000_0200L + host;
    }

    /** Each frame of the burst through the bridge, 100 ns of switch time apart. */
    @Benchmark
    @OperationsPerInvocation(BURST)
    public int lookUp() {
        int ports = 0;
        for (final int handle : handles) {
            nowPicos += 100_000;
            pool.arrivalPicos(handle, nowPicos);
            ports += forwarding.egressPort(pool, handle, 0);
        }
        return ports;
    }
}
