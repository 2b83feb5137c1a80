package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.switching.report.RunReport;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The mechanisms side by side on incasts whose start-up bursts (30 packets per sender, about one
 * bandwidth-delay product) fit the header queues: when do the headers arrive under each?
 */
final class MechanismsExperiment implements Experiment {
    static final String[] WORKLOADS = {"incast:64->1", "incast:64->4", "incast:64->16"};
    static final Mechanism[] MECHANISMS = {Mechanism.IDEAL, Mechanism.MOD, Mechanism.DOD, Mechanism.TOFINO, Mechanism.TOFINO2};
    static final int PACKETS = 30;
    private static final int MAX_POINTS = 1500;

    @Override
    public String name() {
        return "mechanisms";
    }

    static String id(final String workload, final Mechanism mechanism) {
        return "mechanisms-" + RunSpec.slug(workload) + "-" + mechanism.label();
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final String workload : WORKLOADS) {
            for (final Mechanism mechanism : MECHANISMS) {
                specs.add(new RunSpec(id(workload, mechanism), RunSpec.settings(TransportKind.OPEN_LOOP, workload, mechanism, PACKETS), true, false));
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<XYChart> panels = new ArrayList<>();
        try (Csv csv = new Csv(dir.resolve("mechanisms.csv"), "workload", "mechanism", "sent", "whole", "headers", "dropped",
            "trims", "trims_vs_ideal", "max_dod_queue", "header_p50_ns", "header_p99_ns", "last_header_ns", "goodput_mean_gbps")) {
            for (final String workload : WORKLOADS) {
                final RunReport ideal = results.get(id(workload, Mechanism.IDEAL)).report();
                final XYChart chart = Charts.xy(workload + ", " + PACKETS + " packets per sender", "header arrival time (µs)", "fraction of headers delivered");
                chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
                chart.getStyler().setYAxisMin(0.0);
                chart.getStyler().setYAxisMax(1.0);
                for (final Mechanism mechanism : MECHANISMS) {
                    final RunReport report = results.get(id(workload, mechanism)).report();
                    final double[] arrivals = report.headerArrivalNs();
                    csv.row(workload, mechanism.label(), report.sent(), report.deliveredWhole(), report.deliveredHeader(), report.dropped(),
                        report.trims().total(), Metrics.trimsVsIdeal(report, ideal), Metrics.maxDodQueue(report),
                        report.headerLatencyNs().p50(), report.headerLatencyNs().p99(),
                        arrivals.length == 0 ? Double.NaN : arrivals[arrivals.length - 1], report.goodput().meanGbps());
                    if (arrivals.length > 0) {
                        final int points = Math.min(arrivals.length, MAX_POINTS);
                        final double[] x = new double[points];
                        final double[] y = new double[points];
                        for (int i = 0; i < points; i++) {
                            final int index = (int) ((long) i * (arrivals.length - 1) / Math.max(1, points - 1));
                            x[i] = arrivals[index] / 1000.0;
                            y[i] = (index + 1) / (double) arrivals.length;
                        }
                        Charts.line(chart, mechanism.label(), x, y);
                    }
                }
                panels.add(chart);
            }
        }
        final List<String> svgs = Charts.save(dir, "mechanisms", panels, panels.size());
        return List.of(new Figure("Header arrival times by mechanism",
            "CDF of the times trimmed headers reach their receivers, for 64 senders bursting " + PACKETS
                + " packets each into 1, 4 and 16 receivers. ideal trims at enqueue; tofino trims most packets at ingress, "
                + "so its headers are as early as ideal's; mod and dod send headers through a recirculation port first.",
            "mechanisms.png", svgs, List.of("mechanisms.csv")));
    }
}
