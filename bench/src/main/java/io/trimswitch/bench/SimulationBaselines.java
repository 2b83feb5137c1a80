package io.trimswitch.bench;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.simulator.EventQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;


import static io.trimswitch.bench.VirtualTimeSwitchBenchmark.ARRIVALS;
import static io.trimswitch.bench.VirtualTimeSwitchBenchmark.PACKETS;
import static io.trimswitch.bench.VirtualTimeSwitchBenchmark.SENDERS;

/** The floor under {@link VirtualTimeSwitchBenchmark}: what every simulated packet costs with no switch at all. */
@State(Scope.Thread)
public class SimulationBaselines extends SwitchBenchmark {
    private final PacketPool pool = new PacketPool(SENDERS);
    private final EventQueue events = new EventQueue();

    /** Baseline: the senders' work alone — take a buffer, write a frame's headers, give it back. */
    @Benchmark
    @OperationsPerInvocation(ARRIVALS)
    public int baselineFrameGenerator() {
        int written = 0;
        for (int packet = 0; packet < PACKETS; packet++) {
            for (int sender = 0; sender < SENDERS; sender++) {
                final int handle = pool.allocate();
                WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), 1500, sender, (sender + 1) % 16, sender, packet, 10, 666);
                pool.length(handle, 1500);
                written += pool.offset(handle);
                pool.free(handle);
            }
        }
        return written;
    }

    /** Baseline: one event scheduled and taken per packet among 64 interleaved senders. */
    @Benchmark
    @OperationsPerInvocation(ARRIVALS)
    public long baselineEventQueue() {
        events.clear();
        for (int sender = 0; sender < SENDERS; sender++) {
            events.schedule(sender * 1_877L, 0, sender);
        }
        long sum = 0;
        for (int arrival = 0; arrival < ARRIVALS; arrival++) {
            final long time = events.nextTime();
            final long tag = events.poll();
            sum += EventQueue.arg(tag);
            events.schedule(time + 120_000, 0, EventQueue.arg(tag));
        }
        return sum;
    }
}
