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
        final RunReport real = turnByTurn(settings, placement, seed);

        assertEquals(summary(virtual), summary(real));
        assertEquals(flows(virtual), flows(real));
    }

    private static Settings.Placement placement(final String label) {
        return java.util.Arrays.stream(Settings.Placement.values()).filter(p -> p.named(label)).findFirst().orElseThrow();
    }

    /**
     * Ties, on purpose: every sender starts at once, so packets arrive at the same instants on many ports, and a
     * recirculation latency of ten 1500-byte packet times makes headers return at the very instants transmissions end,
     * and NOTIFYs fall due at the instants packets arrive. Both clocks must order each such instant the same way: a
     * packet from outside first, then transmissions ending, then recirculation, then NOTIFYs (CatchUp, EventType).
     */
    @ParameterizedTest(name = "{0}, {1}, seed {2}")
    @CsvSource({"single, tofino, 11", "split, tofino, 12", "per-pipeline, tofino, 13", "single, dod, 14", "split, dod, 15"})
    void simultaneousEventsAreOrderedAlikeInBothClocks(final String placement, final String mechanism, final long seed) {
        final Settings settings = Settings.DEFAULTS
            .withMechanism(Mechanism.parse(mechanism))
            .withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP))
            .withWorkload(x -> x.withDurationUs(DURATION_US).withPackets(PACKETS).withStartJitter(false))
            .withRecirculation(x -> new Settings.Recirculation(x.rateGbps(), 1200, x.dodQueuePackets(), x.mirrorQueuePackets()))
            .withRealtime(x -> x.withPlacement(placement(placement)).withDilation(1000));
        final RunReport virtual = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        final RunReport real = turnByTurn(settings, placement, seed);

        assertEquals(summary(virtual), summary(real));
        assertEquals(flows(virtual), flows(real));
    }

    /**
     * A shard's thread that the host keeps from running for a while: the others wait for it rather than run ahead, so
     * the counts stay virtual time's, and the report says how long it went without a turn, in switch time.
     */
    @org.junit.jupiter.api.Test
    void aStarvedShardShowsAsTheLongestGapBetweenTurnsAndChangesNoCount() {
        final Settings settings = Settings.DEFAULTS
            .withMechanism(Mechanism.TOFINO)
            .withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP))
            .withWorkload(x -> x.withDurationUs(DURATION_US).withPackets(PACKETS))
            .withRealtime(x -> x.withPlacement(Settings.Placement.SPLIT).withDilation(1000));
        final RunReport virtual = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        final CachedNanoClock host = new CachedNanoClock();
        final RealTimeSwitch sw = new RealTimeSwitch(settings.withClock(Settings.Clock.REAL).validate(), null, -1, host);
        final long[] turn = {0};
        // Turns alternate 100 ns of host time apart, but for a stretch of 2 ms of host time (2 µs of switch time at
        // dilation 1000) in which only shard 0 runs.
        final RunReport real = ReportBuilder.build(sw.runTurnByTurn(() -> {
            final long n = turn[0]++;
            final boolean starving = n >= 10_000 && n < 12_000;
            host.advance(starving ? 1_000 : 100);
            return starving ? 0 : (int) (n % 2);
        }));

        assertEquals(summary(virtual), summary(real));
        assertEquals(flows(virtual), flows(real));
        final double gap = real.run().realTime().maxTurnGapNs();
        org.junit.jupiter.api.Assertions.assertTrue(gap >= 2000 && gap <= 2001, "longest gap between turns " + gap + " ns");
    }

    /** The run of {@code settings} in real time, its shards' turns in a seeded random order on a clock the test moves. */
    private static RunReport turnByTurn(final Settings settings, final String placement, final long seed) {
        final CachedNanoClock host = new CachedNanoClock();
        final RealTimeSwitch sw = new RealTimeSwitch(settings.withClock(Settings.Clock.REAL).validate(), null, -1, host);
        final SplittableRandom random = new SplittableRandom(seed);
        final int shards = settings.realtime().shards(settings.fabric().pipelines());
        // At dilation 1000 a 1500-byte packet takes 120 µs of host time on its port: steps of up to 3 of them let one
        // shard run far past another between their turns.
        return ReportBuilder.build(sw.runTurnByTurn(() -> {
            if (random.nextInt(4) == 0) {
                host.advance(random.nextLong(360_000));
            }
            return random.nextInt(shards);
        }));
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
