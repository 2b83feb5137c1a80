package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.NetworkReport;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.TimelineProbe;

/** A finished run: its spec, its report (a lone switch's, a network's or an htsim experiment's) and, when asked for, its timeline. */
public record RunResult(RunSpec spec, RunReport report, TimelineProbe timeline, NetworkReport network, HtsimReport htsim) {
    public RunResult(final RunSpec spec, final RunReport report, final TimelineProbe timeline) {
        this(spec, report, timeline, null, null);
    }

    public RunResult(final RunSpec spec, final RunReport report, final TimelineProbe timeline, final NetworkReport network) {
        this(spec, report, timeline, network, null);
    }

    /** What the run's JSON file holds. */
    Object json() {
        return htsim != null ? htsim : network != null ? network : report;
    }
}
