package io.trimswitch.evaluation.scenario;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The switch under open-loop senders: what the start-up phase of every transport looks like. */
class ScenarioBehaviourTest {
    private static RunReport run(final String pattern, final Mechanism mechanism, final int packets) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern(pattern).withPackets(packets));
        settings = settings.withMechanism(mechanism);
        return ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
    }

    private static int maxDodQueue(final RunReport report) {
        return report.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0);
    }

    @Test
    void inTheWorstCaseDodLetsTheDodQueuesGrowIntoTheThousandsWhileTofinoKeepsThemSmallAndLosesNothing() {
        final RunReport dod = run("shift", Mechanism.DOD, 1000);
        final RunReport tofino = run("shift", Mechanism.TOFINO, 1000);

        assertTrue(maxDodQueue(dod) > 5000, "dod max DoD queue " + maxDodQueue(dod));
        assertTrue(maxDodQueue(tofino) < 500, "tofino max DoD queue " + maxDodQueue(tofino));
        assertEquals(0, tofino.dropped(), "tofino drops " + tofino.drops());
        assertEquals(tofino.sent(), tofino.deliveredWhole() + tofino.deliveredHeader());
        assertTrue(tofino.trims().ingress() > 10 * tofino.trims().dod(), "the control loop moves trimming to ingress");
    }

    @Test
    void inTheWorstCaseTofinoTrimsCloseToTheIdealSwitchAndSharesFairly() {
        final RunReport ideal = run("shift", Mechanism.IDEAL, 1000);
        final RunReport tofino = run("shift", Mechanism.TOFINO, 1000);
        assertEquals(1.0, (double) tofino.trims().total() / ideal.trims().total(), 0.05);
        assertTrue(tofino.goodput().jainFairness() > 0.85, "Jain " + tofino.goodput().jainFairness());
    }

    @Test
    void inASixtyFourToOneIncastTofinoAndDodBehaveAlike() {
        final RunReport dod = run("incast:64->1", Mechanism.DOD, 30);
        final RunReport tofino = run("incast:64->1", Mechanism.TOFINO, 30);
        assertEquals(dod.trims().total(), tofino.trims().total(), dod.trims().total() * 0.05);
        assertEquals(dod.deliveredWhole(), tofino.deliveredWhole(), Math.max(2, dod.deliveredWhole() * 0.05));
        assertTrue(dod.trims().ingress() > 0.9 * dod.trims().total(), "each pipeline sees 16R: its meters trim at ingress");
    }

    @Test
    void belowSeventeenSendersOfMod16NothingIsTrimmed() {
        for (int senders = 1; senders <= 16; senders++) {
            final RunReport report = run("mod16:" + senders, Mechanism.TOFINO, 1000);
            assertEquals(0, report.trims().total(), senders + " senders");
            assertEquals(report.sent(), report.deliveredWhole(), senders + " senders");
        }
        assertTrue(run("mod16:17", Mechanism.TOFINO, 1000).trims().total() > 0, "17 senders put two on one port");
    }

    @Test
    void aLoneFlowAtLineRateShowsPayloadGoodputOf95point7Gbps() {
        final RunReport report = run("pairs:3->40", Mechanism.TOFINO, 1000);
        assertEquals(1000, report.deliveredWhole());
        assertEquals(95.733, report.flows().get(0).goodputGbps(), 0.001);
    }

    @Test
    void mirrorOnDropDeliversEveryHeaderThroughTheMirrorPorts() {
        final RunReport report = run("incast:64->4", Mechanism.MOD, 30);
        assertTrue(report.trims().mirror() > 0);
        assertEquals(report.trims().total(), report.trims().mirror());
        assertEquals(0, report.dropped());
    }

    static Stream<Arguments> everyMechanismOnEveryPattern() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String pattern : new String[] {"shift", "incast:64->1", "incast:64->4", "incast:64->16", "mod16:32", "pairs:0->1,2->1,63->1"}) {
            for (final Mechanism mechanism : Mechanism.values()) {
                cases.add(Arguments.of(pattern, mechanism));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("everyMechanismOnEveryPattern")
    void everyPacketSentIsDeliveredWholeDeliveredAsAHeaderOrCountedAsDropped(final String pattern, final Mechanism mechanism) {
        final RunReport report = run(pattern, mechanism, 200);
        assertTrue(report.conservation());
        assertEquals(report.sent(), report.deliveredWhole() + report.deliveredHeader() + report.dropped());
        assertEquals(0, report.run().leakedBuffers());
        // Every header delivered was trimmed; a trimmed packet not delivered was dropped as a header or was still inside.
        assertTrue(report.deliveredHeader() <= report.trims().total());
        final long trimmedNotDelivered = report.trims().total() - report.deliveredHeader();
        final long headerLosses = report.drops().getOrDefault("headerQueueFull", 0L) + report.drops().getOrDefault("mirrorOverflow", 0L)
            + report.drops().getOrDefault("inFlightAtEnd", 0L);
        assertTrue(trimmedNotDelivered <= headerLosses, trimmedNotDelivered + " trimmed but not delivered, " + headerLosses + " header losses");
    }

    private static RunReport shift(final java.util.function.UnaryOperator<Settings> change) {
        final Settings settings = Settings.DEFAULTS.withOpenLoop().withWorkload(x -> x.withPattern("shift"));
        return ReportBuilder.build(new VirtualTimeSwitch(change.apply(settings).validate()).run());
    }

    @Test
    void theTwoMeterProfileAlsoKeepsTheWorstCaseInCheck() {
        final RunReport two = shift(s -> s.withControl(x -> x.withMeters(Settings.MeterProfile.TWO)));
        assertTrue(maxDodQueue(two) < 500, "two meters: max DoD queue " + maxDodQueue(two));
        assertEquals(0, two.dropped());
        assertTrue(two.trims().ingress() > 10 * two.trims().dod());
    }

    @Test
    void notifyingOnlyTheOriginPipelineLeavesLargerDodQueuesThanNotifyingAll() {
        final RunReport all = shift(s -> s);
        final RunReport origin = shift(s -> s.withControl(x -> x.withNotifyScope(Settings.NotifyScope.ORIGIN)));
        assertTrue(maxDodQueue(origin) > maxDodQueue(all), "origin " + maxDodQueue(origin) + " vs all " + maxDodQueue(all));
        assertTrue(origin.pipelines().stream().mapToLong(RunReport.PipelineReport::signals).sum()
            > all.pipelines().stream().mapToLong(RunReport.PipelineReport::signals).sum(), "more deflections, more signals");
    }

    @Test
    void theBacklogTriggerRaisesFewerSignalsThanEveryDeflectedPacket() {
        final RunReport every = shift(s -> s);
        final RunReport backlog = shift(s -> s.withControl(x -> x.withSignal(Settings.SignalTrigger.BACKLOG).withSignalBacklog(4)));
        final long everySignals = every.pipelines().stream().mapToLong(RunReport.PipelineReport::signals).sum();
        final long backlogSignals = backlog.pipelines().stream().mapToLong(RunReport.PipelineReport::signals).sum();
        final long backlogDeflections = backlog.pipelines().stream().mapToLong(RunReport.PipelineReport::dodDeflections).sum();
        assertEquals(every.trims().dod(), everySignals, "every deflected packet signals once");
        assertTrue(backlogSignals < backlogDeflections, backlogSignals + " signals for " + backlogDeflections + " deflections");
    }

    @Test
    void returnToSenderSendsBackTheHeadersAFullHeaderQueueWouldDrop() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern("incast:64->1").withPackets(30));
        final RunReport dropping = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        settings = settings.withTrim(x -> x.withReturnToSender(true));
        final RunReport returning = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        final long dropped = dropping.drops().getOrDefault("headerQueueFull", 0L);
        final long returned = returning.flows().stream().mapToLong(RunReport.FlowReport::returnedToSender).sum();
        assertTrue(dropped > 500, "64:1 overflows the header queue: " + dropped);
        assertTrue(returned > 500, "those headers go back to their senders: " + returned);
        assertTrue(returning.drops().getOrDefault("headerQueueFull", 0L) < dropped / 10);
        assertTrue(returning.conservation());
    }

    @Test
    void theSameSeedGivesTheSameJsonAndADifferentSeedADifferentOne() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern("incast:64->16").withPackets(100));
        final String first = ReportJson.toJson(ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run()));
        final VirtualTimeSwitch reused = new VirtualTimeSwitch(settings.validate());
        reused.run();
        final String second = ReportJson.toJson(ReportBuilder.build(reused.run()));
        assertEquals(first, second, "a fresh switch and a reused one give identical reports");

        settings = settings.withWorkload(x -> x.withSeed(2));
        final String otherSeed = ReportJson.toJson(ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run()));
        assertNotEquals(first, otherSeed);
    }
}
