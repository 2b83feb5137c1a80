package io.trimswitch.simulator;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BacklogLoopTest {
    private static int maxDodQueue(final String loop, final long seed) {
        final SwitchSettings settings = new SwitchSettings();
        settings.transport.kind = "open-loop";
        settings.workload.pattern = "mod16:32";
        settings.workload.seed = seed;
        settings.control.loop = loop;
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
        final SwitchSettings dod = new SwitchSettings();
        dod.mechanism = "dod";
        dod.control.loop = "backlog";
        assertEquals("control.loop backlog needs mechanism tofino, the one whose NOTIFYs drive a loop; got dod",
            assertThrows(ConfigException.class, dod::validate).getMessage());
        final SwitchSettings real = new SwitchSettings();
        real.clock = "real";
        real.transport.kind = "open-loop";
        real.control.loop = "backlog";
        assertEquals("control.loop backlog runs only with clock virtual", assertThrows(ConfigException.class, real::validate).getMessage());
    }
}
