package io.trimswitch.network.run;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.switching.report.RunReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The readable side of a network's report: the totals and completion times, then one column per tier. */
public final class NetworkTable {
    private NetworkTable() {
    }

    public static String render(final NetworkReport report) {
        final StringBuilder out = new StringBuilder();
        out.append(report.topology()).append(", ").append(report.routing()).append('\n');
        out.append(report.pattern()).append('\n');
        final NetworkReport.Completion fct = report.completionUs();
        out.append(String.format("flows completed        %d of %d%n", fct.count(), fct.count() + fct.incomplete()));
        out.append(String.format("completion time (µs)   p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  mean %.1f%n",
            fct.p50(), fct.p90(), fct.p99(), fct.max(), fct.mean()));
        out.append(String.format("goodput (Gb/s)         mean %.2f  min %.2f  max %.2f  Jain %.3f%n",
            report.goodput().meanGbps(), report.goodput().minGbps(), report.goodput().maxGbps(), report.goodput().jainFairness()));
        out.append(String.format("packets                %d sent, %d whole, %d as headers, %d dropped%s%n",
            report.sent(), report.deliveredWhole(), report.deliveredHeader(), report.dropped(), reasons(report.drops(), " ")));
        if (report.deliveredHeader() == 0) {
            out.append("header latency (ns)    none: no packet was trimmed to its header\n");
        } else {
            out.append(String.format("header latency (ns)    p50 %d  p99 %d  max %d%n",
                report.headerLatencyNs().p50(), report.headerLatencyNs().p99(), report.headerLatencyNs().max()));
        }
        out.append('\n');
        final List<String[]> rows = new ArrayList<>();
        rows.add(row("", report, t -> t.tier() + " (" + t.mechanism() + ")"));
        rows.add(row("switches", report, t -> Integer.toString(t.switches())));
        rows.add(row("trims: ingress", report, t -> Long.toString(t.trims().ingress())));
        rows.add(row("trims: DoD", report, t -> Long.toString(t.trims().dod())));
        rows.add(row("trims: mirror", report, t -> Long.toString(t.trims().mirror())));
        rows.add(row("trims: ideal", report, t -> Long.toString(t.trims().ideal())));
        rows.add(row("trims: total", report, t -> Long.toString(t.trims().total())));
        rows.add(row("DoD deflections", report, t -> Long.toString(t.dodDeflections())));
        rows.add(row("max DoD queue (pkts)", report, t -> Integer.toString(t.maxDodQueue())));
        rows.add(row("max data queue (pkts)", report, t -> Integer.toString(t.maxDataQueue())));
        rows.add(row("max header queue (pkts)", report, t -> Integer.toString(t.maxHeaderQueue())));
        rows.add(row("busiest port", report, t -> String.format("%.1f %%", 100 * t.maxUtilisation())));
        rows.add(row("dropped", report, t -> t.drops().isEmpty() ? "0" : reasons(t.drops(), "")));
        final int[] widths = new int[rows.get(0).length];
        for (final String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (final String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                out.append(i == 0 ? String.format("%-" + widths[i] + "s", row[i]) : String.format("  %" + widths[i] + "s", row[i]));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String[] row(final String label, final NetworkReport report,
        final java.util.function.Function<NetworkReport.TierReport, String> cell) {
        final String[] row = new String[report.tiers().size() + 1];
        row[0] = label;
        for (int i = 0; i < report.tiers().size(); i++) {
            row[i + 1] = cell.apply(report.tiers().get(i));
        }
        return row;
    }

    private static String reasons(final Map<String, Long> drops, final String before) {
        return drops.isEmpty() ? "" : before + drops.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    /** The completion times of a report's flows that completed, µs, in flow order. */
    public static double[] completionsUs(final NetworkReport report) {
        return report.flows().stream().map(RunReport.FlowReport::completionNs).filter(java.util.Objects::nonNull)
            .mapToDouble(ns -> ns / 1000).toArray();
    }
}
