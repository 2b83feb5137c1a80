package io.trimswitch.bench;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.io.PcapngWriter;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.switching.capture.PcapngCapture;
import io.trimswitch.switching.source.ReplaySource;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@code trimswitch replay} of a one-million-packet capture in virtual time, in captured packets per
 * second: indexing the file, then running the switch over it, with and without writing the output
 * pcapng. The capture: all 64 ports sending 256-byte trimmable frames back to back at line rate, each to
 * a (seeded) random port, so every egress port is loaded at line rate on average and bursts get trimmed
 * (a 272 MB pcapng).
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class ReplayBenchmark extends SwitchBenchmark {
    static final int PACKETS = 1_000_000;
    private static final int PORTS = 64;
    private static final int FRAME = 256;

    private Path directory;
    private Path capture;
    private Settings settings;

    @Setup
    public void writeCapture() throws IOException {
        directory = Files.createTempDirectory("replay-bench");
        capture = directory.resolve("shift.pcapng");
        final String[] names = new String[PORTS];
        final long[] speeds = new long[PORTS];
        Arrays.fill(names, "host");
        Arrays.fill(speeds, 100_000_000_000L);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME]);
        final SplittableRandom destinations = new SplittableRandom(1);
        try (PcapngWriter writer = new PcapngWriter(capture, names, speeds, 0)) {
            for (int packet = 0; packet < PACKETS; packet++) {
                final int port = packet % PORTS;
                WorkloadFrames.writeData(frame, 0, FRAME, port, destinations.nextInt(PORTS), port, packet / PORTS, 10, 666);
                writer.write(port, (long) (packet / PORTS) * 20_480, frame, 0, FRAME);
            }
        }
        settings = Settings.DEFAULTS.validate();
    }

    private VirtualTimeSwitch replaySwitch() {
        final ReplaySource source = new ReplaySource(List.of(new ReplaySource.Input(capture, null)), PORTS,
            new LinkRate(settings.portRateBps()), ReplaySource.Timing.LINE_RATE, 1.0);
        return new VirtualTimeSwitch(settings, source, -1);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay() {
        return replaySwitch().run().inFlightAtEnd();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replayWritingPcapng() {
        final VirtualTimeSwitch sw = replaySwitch();
        try (PcapngCapture out = new PcapngCapture(directory.resolve("out.pcapng"), PORTS, settings.portRateBps(), 0)) {
            sw.capture(out);
            return sw.run().inFlightAtEnd();
        }
    }

    /** Baseline: writing the same million frames to a pcapng with no switch at all — the disk's share. */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public int baselineWritePcapngOnly() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME]);
        WorkloadFrames.writeData(frame, 0, FRAME, 0, 1, 0, 0, 10, 666);
        final String[] names = new String[PORTS];
        final long[] speeds = new long[PORTS];
        Arrays.fill(names, "port");
        try (PcapngWriter writer = new PcapngWriter(directory.resolve("out.pcapng"), names, speeds, 0)) {
            for (int packet = 0; packet < PACKETS; packet++) {
                writer.write(packet % PORTS, packet * 2_560L, frame, 0, FRAME);
            }
        }
        return PACKETS;
    }

    @TearDown
    public void removeCapture() throws IOException {
        Files.deleteIfExists(directory.resolve("out.pcapng"));
        Files.deleteIfExists(capture);
        Files.deleteIfExists(directory);
    }
}
