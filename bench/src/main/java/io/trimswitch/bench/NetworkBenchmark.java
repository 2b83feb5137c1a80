package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;


/**
 * Simulated packets per wall-clock second of a 128-host leaf-spine fabric (8 racks of 16 NDP hosts, 4 spines, 100 Gb/s,
 * tofino leaves, ideal spines) running a sprayed permutation of 1000-packet flows, next to the lone switch running its
 * default NDP workload (the worst case: 64 flows of 1000 packets). Both count the same things: {@code packets}, what the
 * hosts sent (data, ACKs, NACKs, PULLs), and {@code switchHops}, what the switches received (a packet that crosses three
 * switches counts three times). The benchmark's own score is whole runs per second.
 */
@State(Scope.Thread)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 5, time = 4)
public class NetworkBenchmark extends SwitchBenchmark {
    /** What one run simulated, summed over the iteration: JMH reports each per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Simulated {
        public long packets;
        public long switchHops;

        @Setup(Level.Iteration)
        public void clear() {
            packets = 0;
            switchHops = 0;
        }
    }

    private NetworkRun fabric;
    private VirtualTimeSwitch lone;

    /** The fabric of the scale run. */
    public static NetworkSettings fabric128() {
        final NetworkSpec spec = new NetworkSpec();
        spec.topology.leaves = 8;
        spec.topology.hostsPerLeaf = 16;
        spec.topology.spines = 4;
        spec.workload.packets = 1000;
        return NetworkSettings.of(spec);
    }

    @Setup
    public void setUp() {
        fabric = NetworkRun.of(fabric128());
        lone = new VirtualTimeSwitch(Settings.DEFAULTS.validate());
    }

    @Benchmark
    public long fabric128Permutation(final Simulated simulated) {
        final long inFlight = fabric.run().inFlightAtEnd();
        simulated.packets += fabric.packetsSent();
        simulated.switchHops += fabric.switchHops();
        return inFlight;
    }

    @Benchmark
    public long loneSwitchNdp(final Simulated simulated) {
        final RunOutcome outcome = lone.run();
        final long inFlight = outcome.inFlightAtEnd();
        final RunRecorder recorder = outcome.source().recorder();
        final long sent = recorder.sentTotal() + recorder.controlSentCount();
        simulated.packets += sent;
        simulated.switchHops += sent;
        return inFlight;
    }
}
