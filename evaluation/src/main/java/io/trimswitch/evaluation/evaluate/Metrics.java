package io.trimswitch.evaluation.evaluate;

import io.trimswitch.switching.report.RunReport;

/** The figures experiments read off a report. */
final class Metrics {
    private Metrics() {
    }

    static int maxDodQueue(final RunReport report) {
        return report.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0);
    }

    static long dodOverflows(final RunReport report) {
        return report.pipelines().stream().mapToLong(RunReport.PipelineReport::dodOverflows).sum();
    }

    static long inFlightAtEnd(final RunReport report) {
        return report.drops().getOrDefault("inFlightAtEnd", 0L);
    }

    /** Packets lost for good: every drop except what was still inside the switch when the run ended. */
    static long losses(final RunReport report) {
        return report.dropped() - inFlightAtEnd(report);
    }

    /** {@code value / reference}, 1 when both are 0 and NaN when only the reference is. */
    static double relative(final double value, final double reference) {
        if (reference == 0) {
            return value == 0 ? 1.0 : Double.NaN;
        }
        return value / reference;
    }

    static double trimsVsIdeal(final RunReport report, final RunReport ideal) {
        return relative(report.trims().total(), ideal.trims().total());
    }

    static double goodputVsIdeal(final RunReport report, final RunReport ideal) {
        return relative(report.goodput().meanGbps(), ideal.goodput().meanGbps());
    }
}
