package io.trimswitch.realtime;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import org.agrona.concurrent.CachedNanoClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Many shards, one order: whatever order the shards' turns come in, and however far the host clock moves between two
 * turns, the real-time switch gives virtual time's result packet for packet. The shards are driven from one thread in a
 * seeded random order on a clock the test moves, so a run is the same every time and needs no fast host: one shard
 * running far ahead of the others is exactly what the ordering rule must survive.
 */
class ShardOrderTest {
    /** Per flow: enough for the worst case's DoD queues to grow and NOTIFYs to cross between shards many times. */
    private static final int PACKETS = 300;
    /** Past the last packet's departure, so that no run is cut short in the middle of the workload. */
    private static final double DURATION_US = 150;

    @ParameterizedTest(name = "{0}, {1}, seed {2}")
    @CsvSource({
        "split, tofino, 1", "split, tofino, 2", "per-pipeline, tofino, 3", "per-pipeline, tofino, 4",
        "split, dod, 5", "per-pipeline, dod, 6", "single, tofino, 7", "per-pipeline, mod, 8"})
    void shardsRunInAnyOrderGiveVirtualTimesResult(final String placement, final String mechanism, final long seed) {
        Settings settings = Settings.DEFAULTS
            .withMechanism(Mechanism.parse(mechanism))
            .withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP))
            .withWorkload(x -> x.withDurationUs(DURATION_US).withPackets(PACKETS))
            .withRealtime(x -> x.withPlacement(placement(placement)).withDilation(1000));
        final RunReport virtual = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        final CachedNanoClock host = new CachedNanoClock();
        final RealTimeSwitch sw = new RealTimeSwitch(settings.withClock(Settings.Clock.REAL).validate(), null, -1, host);
        final SplittableRandom random = new SplittableRandom(seed);
        final int shards = RealTimeSwitch.shards(placement(placement), settings.fabric().pipelines());
        // At dilation 1000 a 1500-byte packet takes 120 µs of host time on its port: steps of up to 3 of them let one
        // shard run far past another between their turns.
        final RunReport real = ReportBuilder.build(sw.runTurnByTurn(() -> {
            if (random.nextInt(4) == 0) {
                host.advance(random.nextLong(360_000));
            }
            return random.nextInt(shards);
        }));

        assertEquals(summary(virtual), summary(real));
        assertEquals(flows(virtual), flows(real));
    }

    private static Settings.Placement placement(final String label) {
        return java.util.Arrays.stream(Settings.Placement.values()).filter(p -> p.named(label)).findFirst().orElseThrow();
    }

    /** What a user compares: drops, trims and where they were made, and each pipeline's largest DoD queue. */
    static String summary(final RunReport report) {
        return "sent " + report.sent() + ", whole " + report.deliveredWhole() + ", headers " + report.deliveredHeader() + ", dropped "
            + report.dropped() + " " + report.drops() + ", trims " + report.trims().total() + " (ingress " + report.trims().ingress() + ", DoD "
            + report.trims().dod() + ", ideal " + report.trims().ideal() + "), largest DoD queues "
            + report.pipelines().stream().map(p -> String.valueOf(p.maxDodQueue())).collect(Collectors.joining(", "));
    }

    /** Per flow: packets delivered whole and as headers, and drops. */
    static String flows(final RunReport report) {
        return report.flows().stream().map(f -> f.src() + "->" + f.dst() + " " + f.whole() + "/" + f.headers() + "/" + f.dropped())
            .collect(Collectors.joining("; "));
    }
}
