package io.trimswitch.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The readable side of a set of runs: one column per run, one row per headline figure. */
public final class SummaryTable {
    private SummaryTable() {
    }

    public static String render(final List<RunReport> reports) {
        return render(reports, true);
    }

    /** With {@code goodput} false the goodput rows are left out (replays have no senders to measure). */
    public static String render(final List<RunReport> reports, final boolean goodput) {
        final List<String[]> rows = new ArrayList<>();
        final boolean realTime = reports.stream().anyMatch(r -> r.run().realTime() != null);
        rows.add(row("", reports, r -> realTime ? r.mechanism() + " (" + r.run().clock() + ")" : r.mechanism()));
        rows.add(row("pattern", reports, RunReport::pattern));
        rows.add(row("packets sent", reports, r -> Long.toString(r.sent())));
        rows.add(row("delivered whole", reports, r -> Long.toString(r.deliveredWhole())));
        rows.add(row("delivered as header", reports, r -> Long.toString(r.deliveredHeader())));
        rows.add(row("dropped", reports, r -> Long.toString(r.dropped())));
        rows.add(row("  by reason", reports, r -> reasons(r.drops())));
        rows.add(row("trims: ingress", reports, r -> Long.toString(r.trims().ingress())));
        rows.add(row("trims: DoD", reports, r -> Long.toString(r.trims().dod())));
        rows.add(row("trims: mirror", reports, r -> Long.toString(r.trims().mirror())));
        rows.add(row("trims: ideal", reports, r -> Long.toString(r.trims().ideal())));
        rows.add(row("trims: total", reports, r -> Long.toString(r.trims().total())));
        rows.add(row("trims vs ideal", reports, r -> r.trims().relativeToIdeal() == null ? "-" : String.format("%.3f×", r.trims().relativeToIdeal())));
        rows.add(row("max DoD queue (pkts)", reports, r -> Integer.toString(r.pipelines().stream().mapToInt(RunReport.PipelineReport::maxDodQueue).max().orElse(0))));
        rows.add(row("DoD deflections", reports, r -> Long.toString(r.pipelines().stream().mapToLong(RunReport.PipelineReport::dodDeflections).sum())));
        rows.add(row("DoD overflows", reports, r -> Long.toString(r.pipelines().stream().mapToLong(RunReport.PipelineReport::dodOverflows).sum())));
        rows.add(row("congestion signals", reports, r -> Long.toString(r.pipelines().stream().mapToLong(RunReport.PipelineReport::signals).sum())));
        rows.add(row("max data queue (pkts)", reports, r -> Integer.toString(r.ports().stream().mapToInt(RunReport.PortReport::maxDataQueue).max().orElse(0))));
        rows.add(row("max header queue (pkts)", reports, r -> Integer.toString(r.ports().stream().mapToInt(RunReport.PortReport::maxHeaderQueue).max().orElse(0))));
        if (goodput) {
            rows.add(row("goodput mean (Gb/s)", reports, r -> String.format("%.2f", r.goodput().meanGbps())));
            // open loop: over the blast; NDP: over each flow's completion time
            rows.add(row("goodput min–max (Gb/s)", reports, r -> String.format("%.2f–%.2f", r.goodput().minGbps(), r.goodput().maxGbps())));
            rows.add(row("Jain fairness", reports, r -> String.format("%.3f", r.goodput().jainFairness())));
        }
        rows.add(row("header latency p50/p99 (ns)", reports, r -> r.headerLatencyNs().p50() + " / " + r.headerLatencyNs().p99()));
        if (reports.stream().anyMatch(r -> r.flowsCompleted() != null)) {
            rows.add(row("flows completed", reports, r -> r.flowsCompleted() == null ? "-" : r.flowsCompleted() + " / " + r.flows().size()));
            rows.add(row("completion time max (µs)", reports, r -> r.flows().stream().map(RunReport.FlowReport::completionNs)
                .filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).max().stream()
                .mapToObj(v -> String.format("%.1f", v / 1000)).findFirst().orElse("-")));
            rows.add(row("retransmissions", reports, r -> Long.toString(r.flows().stream().map(RunReport.FlowReport::retransmissions)
                .filter(java.util.Objects::nonNull).mapToLong(Long::longValue).sum())));
            rows.add(row("control packets (ACK/NACK/PULL)", reports, r -> r.control() == null ? "-" : Long.toString(r.control().sent())));
        }
        if (realTime) {
            rows.add(row("dilation", reports, r -> r.run().realTime() == null ? "-" : String.format("%.0f", r.run().realTime().dilation())));
            rows.add(row("threads", reports, r -> r.run().realTime() == null ? "-" : Integer.toString(r.run().realTime().threads())));
            rows.add(row("max ingress lag (ns)", reports, r -> r.run().realTime() == null ? "-"
                : String.format("%.0f", r.run().realTime().maxIngressLagNs())));
        }
        rows.add(row("conservation", reports, r -> r.conservation() ? "ok" : "VIOLATED"));

        final int[] widths = new int[reports.size() + 1];
        for (final String[] row : rows) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        final StringBuilder text = new StringBuilder();
        for (final String[] row : rows) {
            text.append(String.format("%-" + widths[0] + "s", row[0]));
            for (int column = 1; column < row.length; column++) {
                text.append("  ").append(String.format("%" + widths[column] + "s", row[column]));
            }
            text.append('\n');
        }
        return text.toString();
    }

    private static String[] row(final String label, final List<RunReport> reports, final Function<RunReport, String> value) {
        final String[] row = new String[reports.size() + 1];
        row[0] = label;
        for (int i = 0; i < reports.size(); i++) {
            row[i + 1] = value.apply(reports.get(i));
        }
        return row;
    }

    private static String reasons(final Map<String, Long> drops) {
        if (drops.isEmpty()) {
            return "-";
        }
        final StringBuilder text = new StringBuilder();
        drops.forEach((reason, count) -> text.append(text.length() == 0 ? "" : ", ").append(reason).append(' ').append(count));
        return text.toString();
    }
}
