package io.trimswitch.ndp;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.simulator.TimelineProbe;
import io.trimswitch.simulator.VirtualTimeSwitch;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NdpHostsTest {
    @TempDir
    Path dir;

    private static Settings ndp(final String pattern, final Mechanism mechanism, final int packets) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.NDP));
        settings = settings.withWorkload(x -> x.withPattern(pattern).withPackets(packets));
        settings = settings.withMechanism(mechanism);
        return settings;
    }

    private static RunReport run(Settings settings) {
        final RunReport report = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        assertTrue(report.conservation(), "data and control packets are all accounted for");
        return report;
    }

    private static double maxCompletionNs(final RunReport report) {
        return report.flows().stream().mapToDouble(RunReport.FlowReport::completionNs).max().orElseThrow();
    }

    @Test
    void aLoneFlowCompletesInItsSerialisationTimePlusTwoPropagationDelaysAndOneSwitchHop() {
        Settings settings = ndp("pairs:0->1", Mechanism.IDEAL, 100);
        settings = settings.withWorkload(x -> x.withStartJitter(false));
        final RunReport report = run(settings);
        final RunReport.FlowReport flow = report.flows().get(0);
        // 100 × 120 ns on the host link, 1 µs to the switch, 120 ns out of the egress port, 1 µs to the host.
        assertEquals(100 * 120 + 1000 + 120 + 1000, flow.completionNs(), 0.001);
        assertEquals(0, flow.retransmissions());
        assertEquals(1, report.flowsCompleted());
        // An ACK for every packet and a PULL for every packet but the last (the receiver then holds the whole flow).
        assertEquals(100 + 99, report.control().sent());
        assertEquals(report.control().sent(), report.control().delivered());
    }

    @Test
    void jumboFramesTakeTheirOwnSerialisationTimeAndATrimmedOneIsResentWhole() {
        Settings lone = ndp("pairs:0->1", Mechanism.IDEAL, 100);
        lone = lone.withWorkload(x -> x.withStartJitter(false).withPacketBytes(9014));
        // 100 × 721.12 ns (9014 bytes at 100 Gb/s) on the host link, 1 µs to the switch, one frame out, 1 µs to the host.
        assertEquals(100 * 721.12 + 1000 + 721.12 + 1000, run(lone).flows().get(0).completionNs(), 0.001);

        Settings incast = ndp("incast:4->1", Mechanism.TOFINO, 100);
        incast = incast.withWorkload(x -> x.withPacketBytes(9014));
        final RunReport report = run(incast);
        assertEquals(4, report.flowsCompleted());
        assertTrue(report.deliveredHeader() > 100, "a 4:1 incast of jumbo frames trims: " + report.deliveredHeader());
        for (final RunReport.FlowReport flow : report.flows()) {
            assertEquals(100, flow.whole(), "each packet arrives whole exactly once");
        }
    }

    @Test
    void everyHeaderIsNackedAndItsPacketRetransmittedOnAPull() {
        final RunReport report = run(ndp("incast:4->1", Mechanism.IDEAL, 100));
        assertEquals(4, report.flowsCompleted());
        final long retransmitted = report.flows().stream().mapToLong(RunReport.FlowReport::retransmissions).sum();
        assertTrue(report.deliveredHeader() > 100, "a 4:1 incast at line rate trims");
        assertEquals(report.deliveredHeader(), retransmitted, "one retransmission per header, no timeouts");
        assertEquals(400 + retransmitted, report.sent());
        for (final RunReport.FlowReport flow : report.flows()) {
            assertEquals(100, flow.whole(), "each packet arrives whole exactly once");
        }
    }

    @Test
    void afterTheFirstRoundTripThePullPacerKeepsTheDataQueueNearlyEmpty() {
        Settings settings = ndp("incast:8->1", Mechanism.IDEAL, 300);
        settings = settings.withTransport(x -> x.withInitialWindowPackets(10));
        final VirtualTimeSwitch sw = new VirtualTimeSwitch(settings.validate());
        final TimelineProbe probe = new TimelineProbe(100_000);
        sw.record(probe);
        final RunReport report = ReportBuilder.build(sw.run());
        assertEquals(8, report.flowsCompleted());
        int burst = 0;
        int later = 0;
        for (int sample = 0; sample < probe.samples(); sample++) {
            final int depth = probe.dataDepth(0, sample);
            if (probe.sampleTime(sample) < 10_000_000) {
                burst = Math.max(burst, depth);
            } else {
                later = Math.max(later, depth);
            }
        }
        assertTrue(burst >= 15, "the 80-packet initial windows fill the data queue: " + burst);
        assertTrue(later <= 2, "paced by pulls, one packet per MTU time arrives for each one that leaves: " + later);
        // 2400 packets at one per 120 ns, plus the start-up and a few round trips
        assertEquals(2400 * 0.120, maxCompletionNs(report) / 1000, 10);
    }

    @Test
    void aReceiverOnASlowPortPullsAtThatPortsRate() {
        Settings settings = ndp("incast:4->1", Mechanism.IDEAL, 500);
        settings = settings.withWorkload(x -> x.withStartJitter(false));
        settings = settings.withTransport(x -> x.withInitialWindowPackets(10));
        settings = settings.withPorts(java.util.List.of(Settings.Port.DEFAULTS.withRateGbps(25.0)));
        final RunReport report = run(settings);
        assertEquals(4, report.flowsCompleted());
        // 2000 packets at one per 480 ns (25 Gb/s), and the initial windows' round trip.
        final double slowestUs = maxCompletionNs(report) / 1000;
        assertTrue(slowestUs > 2000 * 0.480 && slowestUs < 2000 * 0.480 + 25, "slowest flow: " + slowestUs + " us");
        // Pulled at 25 Gb/s, the senders send no faster than the port drains: only the initial windows trim.
        final int windows = 4 * settings.transport().initialWindowPackets();
        assertTrue(report.deliveredHeader() < windows, "headers beyond the initial windows: " + report.deliveredHeader());
        assertEquals(report.deliveredHeader(), report.flows().stream().mapToLong(RunReport.FlowReport::retransmissions).sum());
    }

    @Test
    void anIdealIncastFinishesInAboutNTimesTheFlowSizeAtLineRatePlusAFewRoundTrips() {
        final RunReport report = run(ndp("incast:16->1", Mechanism.IDEAL, 100));
        final double lowerBound = 16 * 100 * 120;
        assertTrue(maxCompletionNs(report) >= lowerBound);
        assertTrue(maxCompletionNs(report) <= lowerBound + 4 * 4_500, "within four round trips: " + maxCompletionNs(report));
    }

    static List<Mechanism> builtInMechanisms() {
        return List.of(Mechanism.IDEAL, Mechanism.MOD, Mechanism.DOD, Mechanism.TOFINO, Mechanism.TOFINO2);
    }

    @ParameterizedTest
    @MethodSource("builtInMechanisms")
    void everyFlowCompletesUnderEveryMechanism(final Mechanism mechanism) {
        final RunReport report = run(ndp("incast:64->4", mechanism, 100));
        assertEquals(64, report.flowsCompleted());
        report.flows().forEach(flow -> assertTrue(flow.completionNs() > 0));
    }

    @Test
    void inTheWorstCaseTofinoCompletesLikeTheIdealSwitchAndDodFallsFarBehind() {
        final double tofino = maxCompletionNs(run(ndp("shift", Mechanism.TOFINO, 1000)));
        final double ideal = maxCompletionNs(run(ndp("shift", Mechanism.IDEAL, 1000)));
        final double dod = maxCompletionNs(run(ndp("shift", Mechanism.DOD, 1000)));
        assertEquals(1.0, tofino / ideal, 0.05);
        assertTrue(dod > 2 * tofino, "headers stuck behind thousands of deflected packets: dod " + dod + " vs tofino " + tofino);
    }

    @Test
    void aDuplicateFromASpuriousTimeoutIsAcknowledgedButCountedOnce() {
        Settings settings = ndp("incast:16->1", Mechanism.IDEAL, 100);
        settings = settings.withTransport(x -> x.withRtoUs(3));
        final RunReport report = run(settings);
        assertEquals(16, report.flowsCompleted());
        assertTrue(report.flows().stream().anyMatch(flow -> flow.whole() > flow.size()), "timeouts resent packets that were only queued");
        final RunReport patient = run(ndp("incast:16->1", Mechanism.IDEAL, 100));
        assertEquals(patient.goodput().meanGbps(), report.goodput().meanGbps(), patient.goodput().meanGbps() * 0.5,
            "goodput counts each of a flow's packets once");
    }

    @Test
    void withSharedHostsControlPacketsUseTheSamePortsAsData() {
        Settings settings = ndp("incast:8->2", Mechanism.TOFINO, 100);
        settings = settings.withTransport(x -> x.withHosts(Settings.HostLayout.SHARED));
        final RunReport shared = run(settings);
        assertEquals(8, shared.flowsCompleted());
        assertTrue(shared.ports().stream().allMatch(port -> port.id() < 64));
        final RunReport separate = run(ndp("incast:8->2", Mechanism.TOFINO, 100));
        assertTrue(separate.ports().stream().anyMatch(port -> port.id() >= 64), "separate sending hosts have ports of their own");
    }

    @Test
    void flowSizesCanBeDrawnFromACsv() throws IOException {
        final Path sizes = Files.writeString(dir.resolve("sizes.csv"), "# packets\n10\n200\n");
        Settings settings = ndp("incast:16->4", Mechanism.TOFINO, 1);
        settings = settings.withTransport(x -> x.withFlowSizes(sizes.toString()));
        final RunReport report = run(settings);
        assertEquals(16, report.flowsCompleted());
        assertTrue(report.flows().stream().allMatch(flow -> flow.size() == 10 || flow.size() == 200));
        assertTrue(report.flows().stream().anyMatch(flow -> flow.size() == 10) && report.flows().stream().anyMatch(flow -> flow.size() == 200));

        Files.writeString(sizes, "10\nlots\n");
        final Settings sized = settings;
        final ConfigException error = assertThrows(ConfigException.class, () -> new VirtualTimeSwitch(sized.validate()));
        assertTrue(error.getMessage().endsWith("sizes.csv line 2: 'lots' is not a flow size of 1..65535 packets"), error.getMessage());
    }

    @Test
    void backgroundFlowsArriveAsAPoissonProcessAtTheOfferedLoadAndAllComplete() {
        Settings settings = ndp("incast:16->1", Mechanism.TOFINO, 100);
        settings = settings.withTransport(x -> x.withBackgroundLoad(0.3).withBackgroundUs(200));
        final RunReport report = run(settings);
        // per host: 200 µs × 0.3 / (100 packets × 120 ns) = 5 flows; 64 hosts → 320, give or take 3 σ ≈ 54
        final int background = report.flows().size() - 16;
        assertEquals(320, background, 54);
        assertEquals(report.flows().size(), report.flowsCompleted());
        assertTrue(report.pattern().endsWith("(ndp, " + background + " background flows)"), report.pattern());
        assertTrue(report.flows().subList(16, report.flows().size()).stream().allMatch(flow -> flow.src() != flow.dst()));
        assertEquals(ReportJson.toJson(report), ReportJson.toJson(run(settings)), "seeded: the same flows every time");
    }

    @Test
    void backgroundTrafficNeedsNdp() {
        Settings settings = ndp("incast:16->1", Mechanism.TOFINO, 100);
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        final Settings background = settings.withTransport(x -> x.withBackgroundLoad(0.3));
        assertThrows(ConfigException.class, () -> new VirtualTimeSwitch(background.validate()));
    }

    @Test
    void theSameSeedGivesTheSameReport() {
        Settings settings = ndp("incast:32->4", Mechanism.TOFINO, 200);
        final String first = ReportJson.toJson(run(settings));
        final VirtualTimeSwitch reused = new VirtualTimeSwitch(settings.validate());
        reused.run();
        assertEquals(first, ReportJson.toJson(ReportBuilder.build(reused.run())));
    }
}
