package io.trimswitch.bench;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;


/**
 * Simulated packet arrivals per wall-clock second of the virtual-time switch on the worst case
 * ({@code shift}: 64 senders × 1000 packets), one operation = one packet arriving at the switch.
 * {@link SimulationBaselines} measures, in the same run, the parts every simulated packet costs anyway.
 */
@State(Scope.Thread)
public class VirtualTimeSwitchBenchmark extends SwitchBenchmark {
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
