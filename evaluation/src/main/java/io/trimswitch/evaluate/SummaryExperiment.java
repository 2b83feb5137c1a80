package io.trimswitch.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings.TransportKind;
import io.trimswitch.report.ReportJson;
import io.trimswitch.report.RunReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The headline figures per mechanism and workload, against the ideal switch. */
final class SummaryExperiment implements Experiment {
    /** A workload of the summary: a pattern, packets per flow, and the transport that carries them. */
    record Workload(String pattern, int packets, TransportKind transport) {
        String id() {
            return RunSpec.slug(pattern) + "-" + transport.label();
        }
    }

    /** The worst case run to completion by NDP and as an open-loop blast; the incasts' start-up bursts. */
    static final List<Workload> WORKLOADS = List.of(
        new Workload("shift", 1000, TransportKind.NDP),
        new Workload("shift", 1000, TransportKind.OPEN_LOOP),
        new Workload("incast:64->1", 30, TransportKind.OPEN_LOOP),
        new Workload("incast:64->4", 30, TransportKind.OPEN_LOOP),
        new Workload("incast:64->16", 30, TransportKind.OPEN_LOOP));

    static final Mechanism[] MECHANISMS = {Mechanism.TOFINO, Mechanism.TOFINO2, Mechanism.DOD, Mechanism.MOD, Mechanism.IDEAL};

    /** One line of the summary. */
    record Row(String workload, int packetsPerSender, String transport, String mechanism, double goodputVsIdeal, double trimsVsIdeal,
               int maxDodQueue, long losses, long inFlightAtEnd, double headerLatencyP99Ns) {
    }

    private List<Row> rows = List.of();

    @Override
    public String name() {
        return "summary";
    }

    static String id(final Workload workload, final Mechanism mechanism) {
        return "summary-" + workload.id() + "-" + mechanism.label();
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final Workload workload : WORKLOADS) {
            for (final Mechanism mechanism : MECHANISMS) {
                specs.add(new RunSpec(id(workload, mechanism), RunSpec.settings(workload.transport(), workload.pattern(), mechanism,
                    workload.packets()), false, false));
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<Row> table = new ArrayList<>();
        for (final Workload workload : WORKLOADS) {
            final RunReport ideal = results.get(id(workload, Mechanism.IDEAL)).report();
            for (final Mechanism mechanism : MECHANISMS) {
                final RunReport report = results.get(id(workload, mechanism)).report();
                table.add(new Row(workload.pattern(), workload.packets(), workload.transport().label(), mechanism.label(),
                    round(Metrics.goodputVsIdeal(report, ideal)),
                    round(Metrics.trimsVsIdeal(report, ideal)), Metrics.maxDodQueue(report), Metrics.losses(report),
                    Metrics.inFlightAtEnd(report), report.headerLatencyNs().p99()));
            }
        }
        rows = List.copyOf(table);
        Files.writeString(dir.resolve("summary.md"), markdown());
        ReportJson.write(dir.resolve("summary.json"), rows);
        return List.of();
    }

    List<Row> rows() {
        return rows;
    }

    /** The summary as a Markdown table. */
    String markdown() {
        final StringBuilder text = new StringBuilder();
        text.append("| workload | packets/flow | transport | mechanism | goodput vs ideal | trims vs ideal | max DoD queue | losses | in flight at end | header p99 (ns) |\n");
        text.append("|---|---:|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (final Row row : rows) {
            text.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %.3f | %.3f | %d | %d | %d | %.0f |%n", row.workload(),
                row.packetsPerSender(), row.transport(), row.mechanism(), row.goodputVsIdeal(), row.trimsVsIdeal(), row.maxDodQueue(), row.losses(),
                row.inFlightAtEnd(), row.headerLatencyP99Ns()));
        }
        return text.toString();
    }

    private static double round(final double value) {
        return Double.isNaN(value) ? value : Math.round(value * 1000) / 1000.0;
    }
}
