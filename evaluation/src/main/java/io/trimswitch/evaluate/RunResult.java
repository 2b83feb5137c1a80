package io.trimswitch.evaluate;

import io.trimswitch.report.RunReport;
import io.trimswitch.runtime.TimelineProbe;

/** A finished run: its spec, its report and, when asked for, its timeline. */
public record RunResult(RunSpec spec, RunReport report, TimelineProbe timeline) {
}
