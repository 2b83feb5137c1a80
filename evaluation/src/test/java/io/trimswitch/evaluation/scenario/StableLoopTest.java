package io.trimswitch.evaluation.scenario;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.VirtualTimeSwitch;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sender counts and seeds on which the paper's loop (T1 = 24 µs) loses control of a DoD queue: with T1 = 96 µs the
 * queue stays under 250 packets, with fewer trims and more goodput than the paper's loop on the same run.
 */
class StableLoopTest {
    private static RunReport run(final String transport, final int senders, final int seed, final double t1Us) {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withMechanism(Mechanism.TOFINO);
        settings = settings.withTransport(x -> x.withKind(Settings.TransportKind.of(transport)));
        settings = settings.withWorkload(x -> x.withPattern("mod16:" + senders).withSeed(seed));
        settings = settings.withControl(x -> x.withT1Us(t1Us));
        return ReportBuilder.build(new VirtualTimeSwitch(settings.validate()).run());
    }

    private static int maxDodQueue(final RunReport report) {
        return report.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0);
    }

    @ParameterizedTest(name = "{0} mod16:{1} seed {2}")
    @CsvSource({
        "open-loop, 32, 5", "open-loop, 32, 6", "open-loop, 32, 9", "open-loop, 35, 2", "open-loop, 35, 5",
        "ndp, 29, 5", "ndp, 32, 5", "ndp, 32, 9"})
    void aLongerHalftimisticStateKeepsTheDodQueueThePapersLoopLoses(final String transport, final int senders, final int seed) {
        final RunReport paper = run(transport, senders, seed, 24);
        final RunReport stable = run(transport, senders, seed, 96);

        assertTrue(maxDodQueue(paper) > 1000, "the paper's loop loses this run: max DoD " + maxDodQueue(paper));
        assertTrue(maxDodQueue(stable) <= 250, "max DoD queue " + maxDodQueue(stable));
        assertTrue(stable.trims().total() <= paper.trims().total(), "trims " + stable.trims().total() + " against " + paper.trims().total());
        assertTrue(stable.goodput().meanGbps() >= paper.goodput().meanGbps(),
            "goodput " + stable.goodput().meanGbps() + " against " + paper.goodput().meanGbps());
        assertTrue(stable.dropped() == 0 && stable.sent() == stable.deliveredWhole() + stable.deliveredHeader(), "every packet delivered");
    }
}
