package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.TimelineProbe;

/** A finished run: its spec, its report (a lone switch's, or a network's) and, when asked for, its timeline. */
public record RunResult(RunSpec spec, RunReport report, TimelineProbe timeline, NetworkReport network) {
    public RunResult(final RunSpec spec, final RunReport report, final TimelineProbe timeline) {
        this(spec, report, timeline, null);
    }

    /** What the run's JSON file holds. */
    Object json() {
        return network != null ? network : report;
    }
}
