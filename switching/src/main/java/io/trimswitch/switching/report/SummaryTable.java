package io.trimswitch.switching.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The readable side of a set of runs: one column per run, one row per headline figure. Plain loops and no formatter:
 * the table is the last thing a short run does, and streams, lambdas and {@code String.format} would each be set up
 * on first use for it alone.
 */
public final class SummaryTable {
    private SummaryTable() {
    }

    public static String render(final List<RunReport> reports) {
        return render(reports, true);
    }

    /** With {@code goodput} false the goodput rows are left out (replays have no senders to measure). */
    public static String render(final List<RunReport> reports, final boolean goodput) {
        boolean realTime = false;
        boolean flows = false;
        for (final RunReport report : reports) {
            realTime |= report.run().realTime() != null;
            flows |= report.flowsCompleted() != null;
        }
        final List<Column> columns = new ArrayList<>();
        for (final RunReport report : reports) {
            final Column column = new Column();
            column(report, realTime, goodput, flows, column);
            columns.add(column);
        }
        // Every run's column has the same rows: the first one's labels head them all.
        final List<String> labels = columns.isEmpty() ? List.of() : columns.get(0).labels;
        int labelWidth = 0;
        for (final String label : labels) {
            labelWidth = Math.max(labelWidth, label.length());
        }
        final StringBuilder text = new StringBuilder();
        for (int row = 0; row < labels.size(); row++) {
            text.append(labels.get(row)).append(" ".repeat(labelWidth - labels.get(row).length()));
            for (final Column column : columns) {
                final String cell = column.cells.get(row);
                text.append("  ").append(" ".repeat(column.width - cell.length())).append(cell);
            }
            text.append('\n');
        }
        return text.toString();
    }

    /** One run's column, each cell with its row's label. */
    private static void column(final RunReport r, final boolean realTime, final boolean goodput, final boolean flows, final Column rows) {
        rows.add("", realTime ? r.mechanism() + " (" + r.run().clock() + ")" : r.mechanism());
        rows.add("pattern", r.pattern());
        rows.add("packets sent", Long.toString(r.sent()));
        rows.add("delivered whole", Long.toString(r.deliveredWhole()));
        if ("uet".equals(r.transport())) {
            // A UET sender retransmits a packet whose ACK is late, and both copies may arrive whole: the row says why
            // more were delivered than the flows hold.
            rows.add("  of them duplicates", Long.toString(duplicates(r)));
        }
        rows.add("delivered as header", Long.toString(r.deliveredHeader()));
        rows.add("dropped", Long.toString(r.dropped()));
        rows.add("  by reason", reasons(r.drops()));
        rows.add("trims: ingress", Long.toString(r.trims().ingress()));
        rows.add("trims: DoD", Long.toString(r.trims().dod()));
        rows.add("trims: mirror", Long.toString(r.trims().mirror()));
        rows.add("trims: ideal", Long.toString(r.trims().ideal()));
        rows.add("trims: total", Long.toString(r.trims().total()));
        rows.add("trims vs ideal", r.trims().relativeToIdeal() == null ? "-" : fixed(r.trims().relativeToIdeal(), 3) + "×");
        int maxDodQueue = 0;
        long deflections = 0;
        long overflows = 0;
        long signals = 0;
        for (final RunReport.PipelineReport pipeline : r.pipelines()) {
            maxDodQueue = Math.max(maxDodQueue, pipeline.maxDodQueue());
            deflections += pipeline.dodDeflections();
            overflows += pipeline.dodOverflows();
            signals += pipeline.signals();
        }
        rows.add("max DoD queue (pkts)", Integer.toString(maxDodQueue));
        rows.add("DoD deflections", Long.toString(deflections));
        rows.add("DoD overflows", Long.toString(overflows));
        rows.add("congestion signals", Long.toString(signals));
        int maxDataQueue = 0;
        int maxHeaderQueue = 0;
        for (final RunReport.PortReport port : r.ports()) {
            maxDataQueue = Math.max(maxDataQueue, port.maxDataQueue());
            maxHeaderQueue = Math.max(maxHeaderQueue, port.maxHeaderQueue());
        }
        rows.add("max data queue (pkts)", Integer.toString(maxDataQueue));
        rows.add("max header queue (pkts)", Integer.toString(maxHeaderQueue));
        if (goodput) {
            rows.add("goodput mean (Gb/s)", fixed(r.goodput().meanGbps(), 2));
            // open loop: over the blast; NDP: over each flow's completion time
            rows.add("goodput min–max (Gb/s)", fixed(r.goodput().minGbps(), 2) + "–" + fixed(r.goodput().maxGbps(), 2));
            rows.add("Jain fairness", fixed(r.goodput().jainFairness(), 3));
        }
        rows.add("header latency p50/p99 (ns)", r.headerLatencyNs().p50() + " / " + r.headerLatencyNs().p99());
        if (flows) {
            rows.add("flows completed", r.flowsCompleted() == null ? "-" : r.flowsCompleted() + " / " + r.flows().size());
            Double maxCompletion = null;
            long retransmissions = 0;
            for (final RunReport.FlowReport flow : r.flows()) {
                if (flow.completionNs() != null && (maxCompletion == null || flow.completionNs() > maxCompletion)) {
                    maxCompletion = flow.completionNs();
                }
                if (flow.retransmissions() != null) {
                    retransmissions += flow.retransmissions();
                }
            }
            rows.add("completion time max (µs)", maxCompletion == null ? "-" : fixed(maxCompletion / 1000, 1));
            rows.add("retransmissions", Long.toString(retransmissions));
            rows.add("control packets (ACK/NACK/PULL)", r.control() == null ? "-" : Long.toString(r.control().sent()));
        }
        if (realTime) {
            final boolean real = r.run().realTime() != null;
            rows.add("dilation", real ? fixed(r.run().realTime().dilation(), 0) : "-");
            rows.add("threads", real ? Integer.toString(r.run().realTime().threads()) : "-");
            rows.add("max ingress lag (ns)", real ? fixed(r.run().realTime().maxIngressLagNs(), 0) : "-");
            rows.add("longest gap between turns (ns)", real ? fixed(r.run().realTime().maxTurnGapNs(), 0) : "-");
        }
        rows.add("conservation", r.conservation() ? "ok" : "VIOLATED");
    }

    /** Whole packets delivered beyond every flow's size: copies of a packet that had already arrived. */
    private static long duplicates(final RunReport r) {
        long duplicates = 0;
        for (final RunReport.FlowReport flow : r.flows()) {
            if (flow.size() != null) {
                duplicates += Math.max(0, flow.whole() - flow.size());
            }
        }
        return duplicates;
    }

    /**
     * {@code value} with {@code digits} decimals, rounded half up from its shortest decimal form: what {@code %.Nf} prints
     * in an English locale, without loading the formatter and the locale's data, and what {@code BigDecimal.valueOf}
     * with {@code setScale(digits, HALF_UP)} prints without {@code BigDecimal}, whose first use costs a short run 15 to
     * 25 ms. The rounding works on the digits of {@link Double#toString}, the shortest decimal form.
     */
    static String fixed(final double value, final int digits) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        final String shortest = Double.toString(Math.abs(value));
        final int exponentAt = shortest.indexOf('E');
        final String mantissa = exponentAt < 0 ? shortest : shortest.substring(0, exponentAt);
        final int exponent = exponentAt < 0 ? 0 : Integer.parseInt(shortest.substring(exponentAt + 1));
        final int point = mantissa.indexOf('.');
        final String significand = mantissa.substring(0, point) + mantissa.substring(point + 1);
        // The digits kept: those before the decimal point and the first `digits` after it, as one whole number.
        final int kept = point + exponent + digits;
        final StringBuilder whole = new StringBuilder(Math.max(kept, 0) + 1);
        for (int i = 0; i < kept; i++) {
            whole.append(i < significand.length() ? significand.charAt(i) : '0');
        }
        final boolean roundsUp = kept >= 0 && kept < significand.length() && significand.charAt(kept) >= '5';
        if (roundsUp) {
            int i = whole.length() - 1;
            while (i >= 0 && whole.charAt(i) == '9') {
                whole.setCharAt(i--, '0');
            }
            if (i < 0) {
                whole.insert(0, '1');
            } else {
                whole.setCharAt(i, (char) (whole.charAt(i) + 1));
            }
        }
        int leadingZeros = 0;
        while (leadingZeros < whole.length() - 1 - digits && whole.charAt(leadingZeros) == '0') {
            leadingZeros++;
        }
        whole.delete(0, leadingZeros);
        while (whole.length() < digits + 1) {
            whole.insert(0, '0');
        }
        boolean zero = true;
        for (int i = 0; i < whole.length() && zero; i++) {
            zero = whole.charAt(i) == '0';
        }
        if (digits > 0) {
            whole.insert(whole.length() - digits, '.');
        }
        // As BigDecimal, which has no negative zero: a negative value that rounds to zero prints without a sign.
        return value < 0 && !zero ? "-" + whole : whole.toString();
    }

    private static String reasons(final Map<String, Long> drops) {
        if (drops.isEmpty()) {
            return "-";
        }
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<String, Long> drop : drops.entrySet()) {
            text.append(text.length() == 0 ? "" : ", ").append(drop.getKey()).append(' ').append(drop.getValue());
        }
        return text.toString();
    }

    /** One run's column: its cells, their rows' labels, and the width of its widest cell. */
    private static final class Column {
        private final List<String> labels = new ArrayList<>();
        private final List<String> cells = new ArrayList<>();
        private int width;

        void add(final String label, final String cell) {
            labels.add(label);
            cells.add(cell);
            width = Math.max(width, cell.length());
        }
    }
}
