package io.trimswitch.bench;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Simulated packet arrivals per wall-clock second of the virtual-time switch on the worst case
 * ({@code shift}: 64 senders × 1000 packets), one operation = one packet arriving at the switch.
 * {@link SimulationBaselines} measures, in the same run, the parts every simulated packet costs anyway.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms2g", "-Xmx2g",
    "-Dagrona.disable.bounds.checks=true"})
public class VirtualTimeSwitchBenchmark {
    static final int SENDERS = 64;
    static final int PACKETS = 1000;
    static final int ARRIVALS = SENDERS * PACKETS;

    @Param({"tofino", "ideal", "dod"})
    public String mechanism;

    private VirtualTimeSwitch shift;

    @Setup
    public void setUp() {
        shift = new VirtualTimeSwitch(Settings.DEFAULTS.withMechanism(Mechanism.parse(mechanism)).withOpenLoop()
            .withWorkload(w -> w.withPattern("shift").withPackets(PACKETS)).validate());
        shift.run();
    }

    @Benchmark
    @OperationsPerInvocation(ARRIVALS)
    public long shiftWorstCase() {
        return shift.run().inFlightAtEnd();
    }
}
