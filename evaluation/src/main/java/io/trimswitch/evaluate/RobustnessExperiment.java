package io.trimswitch.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings.TransportKind;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.report.RunReport;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a trim control loop keeps the DoD queues small for every sender count and seed, not just on average:
 * {@code mod16:N} from 17 senders (where senders on different pipelines share a port) to 64, over several seeds,
 * open loop and NDP, under each mechanism that trims at ingress, with the ideal switch as the reference. A run
 * whose largest DoD queue passes 250 packets has lost control of it, and with it the headers' low latency.
 */
final class RobustnessExperiment implements Experiment {
    static final int[] SENDERS = {17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59, 62, 64};
    static final int SEEDS = 8;
    /**
     * A trimming design under test: a mechanism and, for tofino, its control loop and halftimistic rate (null: half the
     * port's).
     */
    record Loop(String label, Mechanism mechanism, String controlLoop, Double halftimisticRateGbps) {
    }

    static final Loop[] LOOPS = {
        new Loop("tofino", Mechanism.TOFINO, "paper", null),
        new Loop("tofino-backlog", Mechanism.TOFINO, "backlog", null),
        new Loop("tofino2", Mechanism.TOFINO2, "paper", null)};
    private static final Loop IDEAL = new Loop("ideal", Mechanism.IDEAL, "paper", null);
    static final TransportKind[] TRANSPORTS = {TransportKind.OPEN_LOOP, TransportKind.NDP};
    /** A DoD queue deeper than this has lost control. */
    static final int UNSTABLE_DOD_PACKETS = 250;
    static final int PACKETS = 1000;

    @Override
    public String name() {
        return "robustness";
    }

    static String id(final TransportKind transport, final Loop loop, final int senders, final int seed) {
        return "robustness-" + transport.label() + "-" + loop.label() + "-" + senders + "-" + seed;
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final TransportKind transport : TRANSPORTS) {
            for (final int senders : SENDERS) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    for (final Loop loop : loops()) {
                        final SwitchSettings settings = RunSpec.settings(transport, "mod16:" + senders, loop.mechanism(), PACKETS);
                        settings.workload.seed = seed;
                        settings.control.loop = loop.controlLoop();
                        settings.control.halftimisticRateGbps = loop.halftimisticRateGbps();
                        specs.add(new RunSpec(id(transport, loop, senders, seed), settings, false, false));
                    }
                }
            }
        }
        return specs;
    }

    private static List<Loop> loops() {
        final List<Loop> all = new ArrayList<>(List.of(LOOPS));
        all.add(IDEAL);
        return all;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<XYChart> panels = new ArrayList<>();
        final StringBuilder table = new StringBuilder("| transport | loop | runs over " + UNSTABLE_DOD_PACKETS + " DoD packets | worst DoD queue "
            + "| trims vs ideal (mean, range) | goodput vs ideal (mean, range) | header p99 (ns, worst) |\n|---|---|---:|---:|---:|---:|---:|\n");
        try (Csv csv = new Csv(dir.resolve("robustness.csv"), "transport", "mechanism", "senders", "seed", "max_dod_queue",
            "trims_vs_ideal", "goodput_vs_ideal", "header_p99_ns")) {
            for (final TransportKind transport : TRANSPORTS) {
                for (final Loop loop : LOOPS) {
                    final Summary summary = new Summary();
                    final XYChart panel = Charts.xy(loop.label() + ", " + transport.label() + ": runs over " + UNSTABLE_DOD_PACKETS
                        + " DoD packets", "senders (mod16:N)", "seed");
                    final List<Double> stableX = new ArrayList<>();
                    final List<Double> stableY = new ArrayList<>();
                    final List<Double> unstableX = new ArrayList<>();
                    final List<Double> unstableY = new ArrayList<>();
                    for (final int senders : SENDERS) {
                        for (int seed = 1; seed <= SEEDS; seed++) {
                            final RunReport report = results.get(id(transport, loop, senders, seed)).report();
                            final RunReport ideal = results.get(id(transport, IDEAL, senders, seed)).report();
                            final int maxDod = Metrics.maxDodQueue(report);
                            final double trims = Metrics.trimsVsIdeal(report, ideal);
                            final double goodput = Metrics.goodputVsIdeal(report, ideal);
                            final long p99 = report.headerLatencyNs() == null ? 0 : report.headerLatencyNs().p99();
                            csv.row(transport.label(), loop.label(), senders, seed, maxDod, trims, goodput, p99);
                            summary.add(maxDod, trims, goodput, p99);
                            (maxDod > UNSTABLE_DOD_PACKETS ? unstableX : stableX).add((double) senders);
                            (maxDod > UNSTABLE_DOD_PACKETS ? unstableY : stableY).add((double) seed);
                        }
                    }
                    marks(panel, "DoD queue ≤ " + UNSTABLE_DOD_PACKETS, stableX, stableY, new Color(0xbbbbbb));
                    marks(panel, "DoD queue > " + UNSTABLE_DOD_PACKETS, unstableX, unstableY, new Color(0xd62728));
                    panels.add(panel);
                    table.append(summary.row(transport, loop));
                }
            }
        }
        Files.writeString(dir.resolve("robustness.md"), table.toString());
        final List<String> svgs = Charts.save(dir, "robustness", panels, LOOPS.length);
        return List.of(new Figure("Robustness over sender counts and seeds",
            "mod16:N for N = " + SENDERS[0] + ".." + SENDERS[SENDERS.length - 1] + " and seeds 1.." + SEEDS + ", 1000-packet flows, open loop "
                + "(top) and NDP (bottom), under tofino with the paper's loop (left), with the backlog-aware loop (middle), and tofino2 (right). A red mark is a run whose largest DoD queue passed "
                + UNSTABLE_DOD_PACKETS + " packets: the loop lost control of it. robustness.md has the share of such runs, the worst "
                + "queue, and trims, goodput and header latency relative to the ideal switch on the same seed.",
            "robustness.png", svgs, List.of("robustness.csv", "robustness.md")));
    }

    private static void marks(final XYChart chart, final String name, final List<Double> x, final List<Double> y, final Color color) {
        if (x.isEmpty()) {
            // XChart draws no series without points; an empty one keeps the legend the same in every panel.
            x.add(Double.NaN);
            y.add(Double.NaN);
        }
        final var series = chart.addSeries(name, Charts.toArray(x), Charts.toArray(y));
        series.setMarker(SeriesMarkers.SQUARE);
        series.setMarkerColor(color);
        series.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.NONE);
    }

    /** One loop's runs on one transport, summed up. */
    private static final class Summary {
        private int runs;
        private int unstable;
        private int worstDod;
        private double trims;
        private double minTrims = Double.MAX_VALUE;
        private double maxTrims;
        private double goodput;
        private double minGoodput = Double.MAX_VALUE;
        private double maxGoodput;
        private long worstP99;

        void add(final int maxDod, final double trimsVsIdeal, final double goodputVsIdeal, final long p99) {
            runs++;
            unstable += maxDod > UNSTABLE_DOD_PACKETS ? 1 : 0;
            worstDod = Math.max(worstDod, maxDod);
            trims += trimsVsIdeal;
            minTrims = Math.min(minTrims, trimsVsIdeal);
            maxTrims = Math.max(maxTrims, trimsVsIdeal);
            goodput += goodputVsIdeal;
            minGoodput = Math.min(minGoodput, goodputVsIdeal);
            maxGoodput = Math.max(maxGoodput, goodputVsIdeal);
            worstP99 = Math.max(worstP99, p99);
        }

        String row(final TransportKind transport, final Loop loop) {
            return String.format(Locale.ROOT, "| %s | %s | %d of %d (%.0f %%) | %d | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %d |%n",
                transport.label(), loop.label(), unstable, runs, 100.0 * unstable / runs, worstDod,
                trims / runs, minTrims, maxTrims, goodput / runs, minGoodput, maxGoodput, worstP99);
        }
    }
}
