package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.report.ReportJson;
import io.trimswitch.switching.report.RunReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The headline figures per mechanism and workload, against the ideal switch. */
final class SummaryExperiment implements Experiment {
    /** A workload of the summary: a pattern, packets per flow, the transport that carries them, and the seed. */
    record Workload(String pattern, int packets, TransportKind transport, long seed) {
        String id() {
            return RunSpec.slug(pattern) + "-" + transport.label() + (seed == 1 ? "" : "-seed" + seed);
        }

        String label() {
            return seed == 1 ? pattern : pattern + " seed " + seed;
        }
    }

    /**
     * The worst case run to completion by NDP and as an open-loop blast; the incasts' start-up bursts; and a run on which the
     * paper's loop loses control of its DoD queue (the robustness experiment has the rest).
     */
    static final List<Workload> WORKLOADS = List.of(
        new Workload("shift", 1000, TransportKind.NDP, 1),
        new Workload("shift", 1000, TransportKind.OPEN_LOOP, 1),
        new Workload("incast:64->1", 30, TransportKind.OPEN_LOOP, 1),
        new Workload("incast:64->4", 30, TransportKind.OPEN_LOOP, 1),
        new Workload("incast:64->16", 30, TransportKind.OPEN_LOOP, 1),
        new Workload("mod16:32", 1000, TransportKind.NDP, RobustnessExperiment.WHY_SEED));

    /** The mechanisms, and tofino with the stable loop's T1; the ideal switch is every workload's reference. */
    static final RobustnessExperiment.Loop[] DESIGNS = {
        RobustnessExperiment.PAPER, RobustnessExperiment.STABLE, RobustnessExperiment.Loop.of(Mechanism.TOFINO2),
        RobustnessExperiment.Loop.of(Mechanism.DOD), RobustnessExperiment.Loop.of(Mechanism.MOD), RobustnessExperiment.IDEAL};

    /** One line of the summary. */
    record Row(String workload, int packetsPerSender, String transport, String mechanism, double goodputVsIdeal, double trimsVsIdeal,
               int maxDodQueue, long losses, long inFlightAtEnd, double headerLatencyP99Ns) {
    }

    private List<Row> rows = List.of();

    @Override
    public String name() {
        return "summary";
    }

    static String id(final Workload workload, final RobustnessExperiment.Loop design) {
        return "summary-" + workload.id() + "-" + design.label();
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final Workload workload : WORKLOADS) {
            for (final RobustnessExperiment.Loop design : DESIGNS) {
                final Settings settings = design.apply(RunSpec.settings(workload.transport(), workload.pattern(), design.mechanism(), workload.packets())
                    .withWorkload(w -> w.withSeed(workload.seed())));
                specs.add(new RunSpec(id(workload, design), settings, false, false));
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<Row> table = new ArrayList<>();
        for (final Workload workload : WORKLOADS) {
            final RunReport ideal = results.get(id(workload, RobustnessExperiment.IDEAL)).report();
            for (final RobustnessExperiment.Loop design : DESIGNS) {
                final RunReport report = results.get(id(workload, design)).report();
                table.add(new Row(workload.label(), workload.packets(), workload.transport().label(), design.label(),
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
