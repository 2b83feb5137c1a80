package io.trimswitch.evaluation.evaluate;

import io.trimswitch.config.Mechanism;
import io.trimswitch.config.SettingsChoices.TransportKind;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.simulator.TimelineProbe;
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
    /** A trimming design under test: a mechanism and, for tofino, its control loop and T0 and T1 (null: the default). */
    record Loop(String label, Mechanism mechanism, String controlLoop, Double t0Us, Double t1Us) {
        /** A mechanism with its defaults, the paper's loop for tofino. */
        static Loop of(final Mechanism mechanism) {
            return new Loop(mechanism.label(), mechanism, "paper", null, null);
        }

        Settings apply(final Settings settings) {
            final Settings.Loop kind = Settings.choice("control.loop", controlLoop, Settings.Loop.values());
            return settings.withControl(c -> c.withLoop(kind).withT0Us(t0Us != null ? t0Us : c.t0Us()).withT1Us(t1Us != null ? t1Us : c.t1Us()));
        }
    }

    /** The stable loop: the paper's, halftimistic for longer than the DoD queues of a first burst take to drain. */
    static final double STABLE_T1_US = 96;
    /**
     * Pessimistic from the first NOTIFY to the end of the run (the floor): what is left of the DoD queue is the first
     * burst, which every loop driven by NOTIFYs meets before its first NOTIFY arrives.
     */
    private static final double FLOOR_US = 1_000_000;
    static final Loop PAPER = Loop.of(Mechanism.TOFINO);
    static final Loop STABLE = new Loop("tofino-t1-96", Mechanism.TOFINO, "paper", null, STABLE_T1_US);
    static final Loop FLOOR = new Loop("tofino-floor", Mechanism.TOFINO, "paper", FLOOR_US, FLOOR_US);
    static final Loop[] LOOPS = {
        PAPER,
        new Loop("tofino-backlog", Mechanism.TOFINO, "backlog", null, null),
        STABLE,
        FLOOR,
        Loop.of(Mechanism.TOFINO2)};
    static final Loop IDEAL = Loop.of(Mechanism.IDEAL);
    /** The run the timelines show: the paper's loop loses control of it, the stable one does not. */
    static final int WHY_SENDERS = 32;
    static final int WHY_SEED = 5;
    private static final int WHY_PORTS = 16;
    private static final double WHY_HORIZON_US = 300;
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
                        final long run = seed;
                        final Settings settings = loop.apply(RunSpec.settings(transport, "mod16:" + senders, loop.mechanism(), PACKETS)
                            .withWorkload(w -> w.withSeed(run)));
                        specs.add(new RunSpec(id(transport, loop, senders, seed), settings, false, false));
                    }
                }
            }
        }
        for (final Loop loop : new Loop[] {PAPER, STABLE}) {
            final Settings settings = loop.apply(RunSpec.settings(TransportKind.NDP, "mod16:" + WHY_SENDERS, loop.mechanism(), PACKETS)
                .withWorkload(w -> w.withSeed(WHY_SEED)));
            specs.add(new RunSpec(whyId(loop), settings, false, true));
        }
        return specs;
    }

    static String whyId(final Loop loop) {
        return "robustness-timeline-" + loop.label();
    }

    private static List<Loop> loops() {
        final List<Loop> all = new ArrayList<>(List.of(LOOPS));
        all.add(IDEAL);
        return all;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<XYChart> panels = new ArrayList<>();
        final StringBuilder table = new StringBuilder("| transport | loop | runs over " + UNSTABLE_DOD_PACKETS + " DoD packets "
            + "| of those, above the floor | worst DoD queue | trims vs ideal (mean, range) | goodput vs ideal (mean, range) "
            + "| header p99 (ns, worst) |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
        final StringBuilder perN = new StringBuilder("\nPer sender count, the mean over seeds of goodput and trims relative to the ideal "
            + "switch, and the worst DoD queue:\n\n| transport | N |");
        final StringBuilder rule = new StringBuilder("|---|---:|");
        for (final Loop loop : LOOPS) {
            perN.append(' ').append(loop.label()).append(": goodput, trims, DoD |");
            rule.append("---:|");
        }
        perN.append('\n').append(rule).append('\n');
        try (Csv csv = new Csv(dir.resolve("robustness.csv"), "transport", "mechanism", "senders", "seed", "max_dod_queue",
            "trims_vs_ideal", "goodput_vs_ideal", "header_p99_ns")) {
            for (final TransportKind transport : TRANSPORTS) {
                final Summary[][] bySenders = new Summary[LOOPS.length][SENDERS.length];
                for (int l = 0; l < LOOPS.length; l++) {
                    final Loop loop = LOOPS[l];
                    final Summary summary = new Summary();
                    final XYChart panel = Charts.xy(loop.label() + ", " + transport.label() + ": runs over " + UNSTABLE_DOD_PACKETS
                        + " DoD packets", "senders (mod16:N)", "seed");
                    final List<Double> stableX = new ArrayList<>();
                    final List<Double> stableY = new ArrayList<>();
                    final List<Double> unstableX = new ArrayList<>();
                    final List<Double> unstableY = new ArrayList<>();
                    for (int n = 0; n < SENDERS.length; n++) {
                        final int senders = SENDERS[n];
                        bySenders[l][n] = new Summary();
                        for (int seed = 1; seed <= SEEDS; seed++) {
                            final RunReport report = results.get(id(transport, loop, senders, seed)).report();
                            final RunReport ideal = results.get(id(transport, IDEAL, senders, seed)).report();
                            final int floor = Metrics.maxDodQueue(results.get(id(transport, FLOOR, senders, seed)).report());
                            final int maxDod = Metrics.maxDodQueue(report);
                            final double trims = Metrics.trimsVsIdeal(report, ideal);
                            final double goodput = Metrics.goodputVsIdeal(report, ideal);
                            final long p99 = report.headerLatencyNs() == null ? 0 : report.headerLatencyNs().p99();
                            csv.row(transport.label(), loop.label(), senders, seed, maxDod, trims, goodput, p99);
                            summary.add(maxDod, floor, trims, goodput, p99);
                            bySenders[l][n].add(maxDod, floor, trims, goodput, p99);
                            (maxDod > UNSTABLE_DOD_PACKETS ? unstableX : stableX).add((double) senders);
                            (maxDod > UNSTABLE_DOD_PACKETS ? unstableY : stableY).add((double) seed);
                        }
                    }
                    marks(panel, "DoD queue ≤ " + UNSTABLE_DOD_PACKETS, stableX, stableY, new Color(0xbbbbbb));
                    marks(panel, "DoD queue > " + UNSTABLE_DOD_PACKETS, unstableX, unstableY, new Color(0xd62728));
                    panels.add(panel);
                    table.append(summary.row(transport, loop));
                }
                for (int n = 0; n < SENDERS.length; n++) {
                    perN.append("| ").append(transport.label()).append(" | ").append(SENDERS[n]).append(" |");
                    for (int l = 0; l < LOOPS.length; l++) {
                        perN.append(bySenders[l][n].means());
                    }
                    perN.append('\n');
                }
            }
        }
        Files.writeString(dir.resolve("robustness.md"), table.append(perN).toString());
        final List<String> svgs = Charts.save(dir, "robustness", panels, LOOPS.length);
        final List<Figure> figures = new ArrayList<>();
        figures.add(new Figure("Robustness over sender counts and seeds",
            "mod16:N for N = " + SENDERS[0] + ".." + SENDERS[SENDERS.length - 1] + " and seeds 1.." + SEEDS + ", 1000-packet flows, open loop "
                + "(top) and NDP (bottom). Left to right: tofino with the paper's loop, with the backlog-aware loop, with T1 = "
                + (int) STABLE_T1_US + " µs, held pessimistic from its first NOTIFY to the end (the floor: the first burst, which every loop "
                + "driven by NOTIFYs meets before its first NOTIFY), and tofino2. A red mark is a run whose largest DoD queue passed "
                + UNSTABLE_DOD_PACKETS + " packets. robustness.md has the share of such runs, how many of them are above the floor, "
                + "the worst queue, and trims, goodput and header latency relative to the ideal switch on the same seed, also per N.",
            "robustness.png", svgs, List.of("robustness.csv", "robustness.md")));
        figures.add(timelines(results, dir));
        return figures;
    }

    /** Why the paper's loop loses control and the stable one does not: states and DoD queues over one run under each. */
    private static Figure timelines(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<XYChart> states = new ArrayList<>();
        final List<XYChart> queues = new ArrayList<>();
        for (final Loop loop : new Loop[] {PAPER, STABLE}) {
            final RunResult result = results.get(whyId(loop));
            final TimelineProbe probe = result.timeline();
            final var settings = result.report().config();
            final long t0 = Picos.fromMicros(settings.control().t0Us());
            final long t1 = Picos.fromMicros(settings.control().t1Us());
            final long horizon = Picos.fromMicros(WHY_HORIZON_US);
            final List<TimelineProbe.Interval> intervals = new ArrayList<>();
            for (int port = 0; port < WHY_PORTS; port++) {
                intervals.addAll(probe.intervals(0, port, t0, t1, horizon));
            }
            final String title = loop == PAPER ? "paper's loop (T1 = " + (int) settings.control().t1Us() + " µs)"
                : "T1 = " + (int) settings.control().t1Us() + " µs";
            states.add(TimelineCharts.states(title + ": trim state per egress port (pipeline 0)", intervals, WHY_PORTS, WHY_HORIZON_US));
            final int samples = (int) Math.min(probe.samples(), horizon / probe.samplePeriodPicos() + 1);
            final XYChart dod = TimelineCharts.dodQueues(title + ": DoD queues", probe, samples, WHY_HORIZON_US);
            queues.add(dod);
        }
        final List<XYChart> panels = new ArrayList<>(states);
        panels.addAll(queues);
        final List<String> svgs = Charts.save(dir, "robustness-timeline", panels, 2);
        return new Figure("Why the paper's loop loses control",
            "NDP, mod16:" + WHY_SENDERS + ", seed " + WHY_SEED + ": two senders on pipelines 0 and 1 share each of the ports 0..15. Left, the "
                + "paper's loop: T1 after the first burst's NOTIFYs every port goes optimistic at once, the two pipelines offer it 2 R, and "
                + "the packets they deflect all wait in one DoD queue, so each NOTIFY comes back later than the last and the ports stay "
                + "optimistic longer: the queue runs away. Right, T1 = " + (int) STABLE_T1_US + " µs: the ports stay halftimistic (R/2 "
                + "per pipeline, R in all) while the incast lasts, and the DoD queue never grows again after the first burst.",
            "robustness-timeline.png", svgs, List.of());
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

    /** One loop's runs on one transport (or one sender count), summed up. */
    private static final class Summary {
        private int runs;
        private int unstable;
        private int aboveFloor;
        private int worstDod;
        private double trims;
        private double minTrims = Double.MAX_VALUE;
        private double maxTrims;
        private double goodput;
        private double minGoodput = Double.MAX_VALUE;
        private double maxGoodput;
        private long worstP99;

        void add(final int maxDod, final int floor, final double trimsVsIdeal, final double goodputVsIdeal, final long p99) {
            runs++;
            unstable += maxDod > UNSTABLE_DOD_PACKETS ? 1 : 0;
            aboveFloor += maxDod > UNSTABLE_DOD_PACKETS && maxDod > floor ? 1 : 0;
            worstDod = Math.max(worstDod, maxDod);
            trims += trimsVsIdeal;
            minTrims = Math.min(minTrims, trimsVsIdeal);
            maxTrims = Math.max(maxTrims, trimsVsIdeal);
            goodput += goodputVsIdeal;
            minGoodput = Math.min(minGoodput, goodputVsIdeal);
            maxGoodput = Math.max(maxGoodput, goodputVsIdeal);
            worstP99 = Math.max(worstP99, p99);
        }

        /** Mean goodput and trims relative to the ideal switch, and the worst DoD queue, as cells of a table row. */
        String means() {
            return String.format(Locale.ROOT, " %.3f, %.3f, %d |", goodput / runs, trims / runs, worstDod);
        }

        String row(final TransportKind transport, final Loop loop) {
            return String.format(Locale.ROOT, "| %s | %s | %d of %d (%.0f %%) | %d | %d | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) | %d |%n",
                transport.label(), loop.label(), unstable, runs, 100.0 * unstable / runs, aboveFloor, worstDod,
                trims / runs, minTrims, maxTrims, goodput / runs, minGoodput, maxGoodput, worstP99);
        }
    }
}
