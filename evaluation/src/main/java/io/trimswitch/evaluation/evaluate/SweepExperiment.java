package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.switching.report.RunReport;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 1..64-sender sweep ({@code mod16:N}, NDP flows of 1000 packets sent as one initial window): from 17
 * senders on, two or more pipelines send to one port at line rate each, which no single pipeline's meter
 * can see.
 */
final class SweepExperiment implements Experiment {
    static final int MAX_SENDERS = 64;
    static final Mechanism[] MECHANISMS = {Mechanism.TOFINO, Mechanism.TOFINO2, Mechanism.IDEAL, Mechanism.DOD};
    static final int PACKETS = 1000;

    @Override
    public String name() {
        return "sweep";
    }

    static String id(final int senders, final Mechanism mechanism) {
        return "sweep-" + senders + "-" + mechanism.label();
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (int senders = 1; senders <= MAX_SENDERS; senders++) {
            for (final Mechanism mechanism : MECHANISMS) {
                specs.add(new RunSpec(id(senders, mechanism), RunSpec.settings(TransportKind.NDP, "mod16:" + senders, mechanism, PACKETS), false, false));
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final double[] x = new double[MAX_SENDERS];
        final double[][] mean = new double[MECHANISMS.length][MAX_SENDERS];
        final double[][] min = new double[MECHANISMS.length][MAX_SENDERS];
        final double[][] max = new double[MECHANISMS.length][MAX_SENDERS];
        final double[][] trims = new double[MECHANISMS.length][MAX_SENDERS];
        final double[][] dod = new double[MECHANISMS.length][MAX_SENDERS];
        try (Csv csv = new Csv(dir.resolve("sweep.csv"), "senders", "mechanism", "goodput_mean_gbps", "goodput_min_gbps",
            "goodput_max_gbps", "jain_fairness", "trims", "trims_vs_ideal", "max_dod_queue", "dod_overflows", "losses", "in_flight_at_end")) {
            for (int senders = 1; senders <= MAX_SENDERS; senders++) {
                x[senders - 1] = senders;
                final RunReport ideal = results.get(id(senders, Mechanism.IDEAL)).report();
                for (int m = 0; m < MECHANISMS.length; m++) {
                    final RunReport report = results.get(id(senders, MECHANISMS[m])).report();
                    mean[m][senders - 1] = report.goodput().meanGbps();
                    min[m][senders - 1] = report.goodput().minGbps();
                    max[m][senders - 1] = report.goodput().maxGbps();
                    trims[m][senders - 1] = Metrics.trimsVsIdeal(report, ideal);
                    dod[m][senders - 1] = Metrics.maxDodQueue(report);
                    csv.row(senders, MECHANISMS[m].label(), report.goodput().meanGbps(), report.goodput().minGbps(),
                        report.goodput().maxGbps(), report.goodput().jainFairness(), report.trims().total(),
                        Metrics.trimsVsIdeal(report, ideal), Metrics.maxDodQueue(report), Metrics.dodOverflows(report),
                        Metrics.losses(report), Metrics.inFlightAtEnd(report));
                }
            }
        }
        final XYChart goodput = Charts.xy("Flow goodput over completion time", "senders (mod16:N)", "goodput (Gb/s)");
        for (int m = 0; m < MECHANISMS.length; m++) {
            Charts.line(goodput, MECHANISMS[m].label() + " mean", x, mean[m]);
            if (MECHANISMS[m] != Mechanism.DOD) {
                dashed(goodput.addSeries(MECHANISMS[m].label() + " min", x, min[m]));
                dashed(goodput.addSeries(MECHANISMS[m].label() + " max", x, max[m]));
            }
        }
        final XYChart trimChart = Charts.xy("Trims relative to ideal", "senders (mod16:N)", "trims / ideal's trims");
        final XYChart dodChart = Charts.xy("Largest DoD queue", "senders (mod16:N)", "max DoD queue (packets)");
        for (int m = 0; m < MECHANISMS.length; m++) {
            if (MECHANISMS[m] != Mechanism.IDEAL) {
                Charts.line(trimChart, MECHANISMS[m].label(), x, trims[m]);
                Charts.line(dodChart, MECHANISMS[m].label(), x, dod[m]);
            }
        }
        dodChart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        final List<String> svgs = Charts.save(dir, "sweep", List.of(goodput, trimChart, dodChart), 3);
        return List.of(new Figure("The 1..64-sender sweep",
            "mod16:N with NDP hosts: each sender's 1000 × 1500 B flow goes out as one initial window at line rate, trimmed packets "
                + "are retransmitted on the receivers' pulls until every flow completes. Up to 16 senders every port has one sender and "
                + "nothing is trimmed; from 17 on, senders on different pipelines share a port. Left: mean (solid) and min/max (dashed) "
                + "flow goodput over each flow's completion time. "
                + "Middle: trims relative to the ideal switch. Right: the largest DoD queue of any pipeline — dod's grow into the thousands, tofino's stay small.",
            "sweep.png", svgs, List.of("sweep.csv")));
    }

    private static void dashed(final XYSeries series) {
        series.setMarker(SeriesMarkers.NONE);
        series.setLineStyle(SeriesLines.DASH_DASH);
    }
}
