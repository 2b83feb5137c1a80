package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Tofino2Test {
    private static RunReport incast(final int staleStages) {
        return incast(staleStages, null);
    }

    private static RunReport incast(final int staleStages, final Integer threshold) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withMechanism(Mechanism.TOFINO2);
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern("mod16:64").withPackets(200));
        settings = settings.withControl(x -> x.withStaleStages(staleStages).withDepthThresholdPackets(threshold));
        return ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
    }

    @Test
    void itTrimsAtIngressOnTheQueueDepthAndDeflectsWhatAStaleReadLetsThrough() {
        final RunReport fresh = incast(0, 16);
        final RunReport stale = incast(4, 16);
        for (final RunReport report : new RunReport[] {fresh, stale}) {
            assertTrue(report.conservation());
            assertEquals(0, report.dropped());
            assertTrue(report.trims().ingress() > report.trims().dod(), "most trims at ingress: " + report.trims());
        }
        assertEquals(0, fresh.trims().dod(), "a fresh read at the queue's capacity never lets a packet meet it full");
        assertTrue(stale.trims().dod() > 0, "four stale stages in four pipelines let packets slip through to DoD");
    }

    @Test
    void byDefaultTheThresholdLeavesRoomForWhatTheStaleReadMisses() {
        final RunReport report = incast(4);
        assertTrue(report.conservation());
        assertEquals(0, report.trims().dod(), "a threshold of 16 - 4 packets: nothing slips through " + report.trims());
    }

    @Test
    void whereThePapersLoopLosesControlOfItsDodQueuesTofino2KeepsThemSmall() {
        // mod16:32, open loop: seed 5 takes tofino's DoD queue past 2000 packets.
        for (final String mechanism : new String[] {"tofino", "tofino2"}) {
            Settings settings = Settings.DEFAULTS;
            settings = settings.withMechanism(Mechanism.parse(mechanism));
            settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
            settings = settings.withWorkload(x -> x.withPattern("mod16:32").withSeed(5));
            final RunReport report = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
            final int maxDod = report.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0);
            if (mechanism.equals("tofino")) {
                assertTrue(maxDod > 1000, "the paper's loop on this seed: " + maxDod);
            } else {
                assertTrue(maxDod <= 250, "tofino2 on the same seed: " + maxDod);
            }
        }
    }

    @Test
    void itHasOneRecirculationPortPerEightPorts() {
        assertEquals(8, incast(4).pipelines().size(), "64 ports: eight recirculation ports");
    }

    @Test
    void itRunsInVirtualTimeOnly() {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withMechanism(Mechanism.TOFINO2);
        settings = settings.withClock(Settings.Clock.REAL);
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        assertEquals("mechanism tofino2 runs only with clock virtual", assertThrows(ConfigException.class, settings::validate).getMessage());
    }
}
