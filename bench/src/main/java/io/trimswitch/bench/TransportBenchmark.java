package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Wall time of one run of {@code mod16:64} with 1000-packet flows under tofino: open-loop senders (the
 * blast only) against NDP hosts (retransmitting until every flow completes, with every ACK, NACK and PULL
 * through the switch). The goal is NDP within 3× open loop.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class TransportBenchmark extends SwitchBenchmark {
    @Param({"open-loop", "ndp"})
    public String transport;

    private VirtualTimeSwitch sweepPoint;

    @Setup
    public void setUp() {
        final Settings.TransportKind kind = Settings.TransportKind.of(transport);
        sweepPoint = new VirtualTimeSwitch(Settings.DEFAULTS.withTransport(t -> t.withKind(kind))
            .withWorkload(w -> w.withPattern("mod16:64").withPackets(1000)).validate());
        sweepPoint.run();
    }

    @Benchmark
    public long mod16x64() {
        return sweepPoint.run().inFlightAtEnd();
    }
}
