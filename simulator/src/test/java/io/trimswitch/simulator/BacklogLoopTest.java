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

class BacklogLoopTest {
    private static int maxDodQueue(final String loop, final long seed) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        settings = settings.withWorkload(x -> x.withPattern("mod16:32").withSeed(seed));
        settings = settings.withControl(x -> x.withLoop(Settings.choice("control.loop", loop, Settings.Loop.values())));
        final RunReport report = ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
        assertTrue(report.conservation());
        return report.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0);
    }

    @Test
    void onTheSeedsWhereThePapersLoopRunsAwayTheBacklogLoopKeepsTheDodQueuesSmall() {
        for (final long seed : new long[] {5, 6, 9}) {
            assertTrue(maxDodQueue("paper", seed) > 1000, "seed " + seed + ": the paper's loop runs away");
            assertTrue(maxDodQueue("backlog", seed) <= 250, "seed " + seed + ": the backlog loop keeps control");
        }
    }

    @Test
    void theBacklogLoopNeedsTofinoAndVirtualTime() {
        Settings dod = Settings.DEFAULTS;
        dod = dod.withMechanism(Mechanism.DOD);
        dod = dod.withControl(x -> x.withLoop(Settings.Loop.BACKLOG));
        assertEquals("control.loop backlog needs mechanism tofino, the one whose NOTIFYs drive a loop; got dod",
            assertThrows(ConfigException.class, dod::validate).getMessage());
        Settings real = Settings.DEFAULTS;
        real = real.withClock(Settings.Clock.REAL);
        real = real.withTransport(x -> x.withKind(Settings.TransportKind.OPEN_LOOP));
        real = real.withControl(x -> x.withLoop(Settings.Loop.BACKLOG));
        assertEquals("control.loop backlog runs only with clock virtual", assertThrows(ConfigException.class, real::validate).getMessage());
    }
}
