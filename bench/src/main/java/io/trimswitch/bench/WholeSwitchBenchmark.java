package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.realtime.RealTimeSwitch;
import io.trimswitch.switching.source.OpenLoopSenders;
import io.trimswitch.trafficmanager.HandleRing;
import org.agrona.concurrent.Agent;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.List;

/**
 * The whole real-time switch on two cores, undilated: 64 ports each sending to the next (no port is
 * oversubscribed, so every packet is forwarded whole) as fast as the host can, with the {@code split}
 * placement: two pipeline shards, the first with the generator ports and pipelines 0 and 2, the other with
 * pipelines 1 and 3; each port sends to the next, so half the packets cross from one shard to the other.
 * Counted: packets out of the egress ports of both shards per second. The baseline,
 * measured alongside, is the same two threads doing only the generator's work and the hand-off: frames
 * written into pooled buffers, passed through a ring, and given back.
 */
@State(Scope.Group)
public class WholeSwitchBenchmark extends SwitchBenchmark {
    private static final int PORTS = 64;

    @Param({"64", "1500"})
    public int packetBytes;

    private RealTimeSwitch sw;
    private Agent first;
    private Agent second;

    private OpenLoopSenders generator;
    private PacketPool pool;
    private HandleRing handOff;
    private HandleRing returns;
    private final HandleRing.HandleConsumer giveBack = handle -> returns.offer(handle);
    private HandleRing.HandleConsumer reclaim;

    /** Packets that left the switch (or, for the baseline, reached the other thread). */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Forwarded {
        public long packets;

        @Setup(Level.Iteration)
        public void clear() {
            packets = 0;
        }
    }

    @Setup
    public void setUp() {
        final StringBuilder ring = new StringBuilder("pairs:");
        for (int port = 0; port < PORTS; port++) {
            ring.append(port == 0 ? "" : ",").append(port).append("->").append((port + 1) % PORTS);
        }
        // Undilated, the generator runs behind its schedule; deep data queues keep a moment's lag of the
        // egress thread from turning into deflections, so what is measured is forwarding.
        final Settings settings = Settings.DEFAULTS.withClock(Settings.Clock.REAL).withOpenLoop()
            .withRealtime(r -> r.withDilation(1).withPlacement(Settings.Placement.SPLIT))
            .withWorkload(w -> w.withPacketBytes(packetBytes).withPackets(1_000_000).withDurationUs(1_000_000).withPattern(ring.toString()))
            .withFabric(f -> f.withDataQueuePackets(1024)).withControl(c -> c.withMeterBurstBytes(16 * packetBytes));
        sw = new RealTimeSwitch(settings.validate());
        final List<Agent> threads = sw.startDrivenByCaller();
        first = threads.get(0);
        second = threads.get(1);

        generator = OpenLoopSenders.forWorkload(settings.validate());
        pool = new PacketPool(8192);
        handOff = new HandleRing(4096, false);
        returns = new HandleRing(8192, false);
        reclaim = pool::free;
    }

    @Benchmark
    @Group("switch")
    @GroupThreads(1)
    public void switchFirstShard(final Forwarded forwarded) throws Exception {
        final long before = sw.departed(0);
        first.doWork();
        forwarded.packets += sw.departed(0) - before;
    }

    @Benchmark
    @Group("switch")
    @GroupThreads(1)
    public void switchSecondShard(final Forwarded forwarded) throws Exception {
        final long before = sw.departed(1);
        second.doWork();
        forwarded.packets += sw.departed(1) - before;
    }

    /** Baseline, first thread: reclaim buffers, write up to a batch of frames, hand them over. */
    @Benchmark
    @Group("baselineGeneratorAndHandOff")
    @GroupThreads(1)
    public int baselineGenerate() {
        returns.drain(reclaim, Integer.MAX_VALUE);
        int handed = 0;
        for (int i = 0; i < 32; i++) {
            final int handle = pool.allocate();
            if (handle == PacketPool.NO_PACKET) {
                break;
            }
            generator.emit(pool, handle);
            if (!handOff.offer(handle)) {
                pool.free(handle);
                break;
            }
            handed++;
        }
        return handed;
    }

    /** Baseline, second thread: take what was handed over and give the buffers back. */
    @Benchmark
    @Group("baselineGeneratorAndHandOff")
    @GroupThreads(1)
    public void baselineReceive(final Forwarded forwarded) {
        forwarded.packets += handOff.drain(giveBack, 32);
    }
}
