package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.simulator.Transports;
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * NDP and Ultra Ethernet hosts on the switch designs: three experiments of uet-htsim's kind on its default fat tree of 16
 * hosts (three tiers, 100 Gb/s, 1 µs links, 4150-byte packets), with every switch {@code ideal} (uet-htsim's trimming
 * queue), {@code tofino} (meters, the three-state loop, deflect-on-drop) or {@code dod} (deflect-on-drop alone), UET's
 * senders paced by NSCC, and on tofino and dod also by their receivers' credit (RCCC): the last flow's finish, the packets
 * trimmed, the NACKs and the packets sent again. The matrices are the experiment's own, written here: an incast, an
 * outcast beside an incast, and a permutation with one link at a quarter of its rate.
 */
final class UetDesignsExperiment implements Experiment {
    static final int NODES = 16;
    static final int MTU = 4086;
    /** Each flow's bytes in the evaluation: uet-htsim's 2 MB. */
    static final long FLOW_BYTES = 2_000_000;
    static final List<String> MECHANISMS = List.of("ideal", "tofino", "dod");

    /** The hosts of one series of runs: NDP's, UET's with NSCC, or UET's with RCCC, and the designs they run on. */
    record Hosts(String id, String label, String transport, String cc, List<String> mechanisms) {
    }

    static final List<Hosts> HOSTS = List.of(
        new Hosts("ndp", "NDP", "ndp", null, MECHANISMS),
        new Hosts("uet", "UET", "uet", "sender", MECHANISMS),
        new Hosts("rccc", "UET RCCC", "uet", "receiver", List.of("tofino", "dod")));

    /** One experiment: its label (and a short one for the plot), its id, its flows (sender, receiver), the links slowed and UET's entropies (null: 64). */
    record Case(String label, String shortLabel, String id, int[][] flows, int failedLinks, Integer paths) {
    }

    static final List<Case> CASES = List.of(
        new Case("16-node incast", "incast", "incast", incast(), 0, null),
        new Case("outcast and incast", "outcast + incast", "outcast-incast", outcastAndIncast(), 0, null),
        new Case("16-node permutation, a link at 25 %", "slowed permutation", "permutation-slowed", permutation(), 1, 128));

    private final long flowBytes;

    UetDesignsExperiment() {
        this(FLOW_BYTES);
    }

    /** The experiment with flows of {@code flowBytes} each (a test runs smaller ones). */
    UetDesignsExperiment(final long flowBytes) {
        this.flowBytes = flowBytes;
    }

    /** Hosts 1 to 15 into host 0. */
    private static int[][] incast() {
        final int[][] flows = new int[NODES - 1][];
        for (int host = 1; host < NODES; host++) {
            flows[host - 1] = new int[] {host, 0};
        }
        return flows;
    }

    /** Hosts 1, 2 and 3 into host 0, while hosts 2 and 3 also send to five hosts each: their links are shared by six flows. */
    private static int[][] outcastAndIncast() {
        final List<int[]> flows = new ArrayList<>();
        for (int host = 1; host <= 3; host++) {
            flows.add(new int[] {host, 0});
        }
        for (int dst = 4; dst <= 8; dst++) {
            flows.add(new int[] {2, dst});
        }
        for (int dst = 9; dst <= 13; dst++) {
            flows.add(new int[] {3, dst});
        }
        return flows.toArray(new int[0][]);
    }

    /** Host i to host i + 5 (mod 16): every host sends once and receives once, most flows across the core. */
    private static int[][] permutation() {
        final int[][] flows = new int[NODES][];
        for (int host = 0; host < NODES; host++) {
            flows[host] = new int[] {host, (host + 5) % NODES};
        }
        return flows;
    }

    @Override
    public String name() {
        return "uet";
    }

    static String id(final Case c, final String transport, final String mechanism) {
        return "uet-" + c.id() + "-" + transport + "-" + mechanism;
    }

    /** The matrix of {@code c} in htsim's format, each flow {@code bytes} long from time zero. */
    static HtsimMatrix matrix(final Case c, final long bytes) {
        final StringBuilder text = new StringBuilder().append("Nodes ").append(NODES).append('\n')
            .append("Connections ").append(c.flows().length).append('\n');
        for (int i = 0; i < c.flows().length; i++) {
            text.append(c.flows()[i][0]).append("->").append(c.flows()[i][1]).append(" id ").append(i + 1).append(" start 0 size ").append(bytes)
                .append('\n');
        }
        return HtsimMatrix.parse(text.toString(), c.id() + ".cm");
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final Case c : CASES) {
            final HtsimMatrix matrix = matrix(c, flowBytes);
            // UET's data queues by default: one bandwidth-delay product (44 MTUs of queue on this tree, 43 packets waiting).
            final int queue = NetworkRun.defaultQueuePackets(experiment(matrix, "ideal", 15, null, c, "uet"), Transports.named("uet"), false);
            for (final Hosts hosts : HOSTS) {
                final String transport = hosts.transport();
                for (final String mechanism : hosts.mechanisms()) {
                    // NDP's hosts get what UET's get: queues of one bandwidth-delay product and a first window of as many packets
                    // as wait in one; they spray over every path, UET's over its entropies.
                    final HtsimExperiment experiment = experiment(matrix, mechanism, queue, transport.equals("ndp") ? queue - 1 : null, c, transport);
                    final java.util.Map<String, Object> block = new java.util.HashMap<>();
                    if (hosts.cc() != null) {
                        block.put("entropies", c.paths());
                        block.put("cc", hosts.cc());
                    }
                    specs.add(RunSpec.htsim(id(c, hosts.id(), mechanism), new HtsimRun(experiment, transport, block)));
                }
            }
        }
        return specs;
    }

    private static HtsimExperiment experiment(final HtsimMatrix matrix, final String mechanism, final int queue, final Integer window, final Case c,
        final String transport) {
        final Integer paths = transport.equals("uet") ? c.paths() : null;
        return HtsimExperiment.of(null, matrix, new HtsimExperiment.Options(mechanism, mechanism, mechanism, MTU, queue, window, paths, null,
            c.failedLinks() > 0 ? c.failedLinks() : null, null));
    }

    /** What the table and the plot show of one run. */
    record Row(double lastFinishUs, int flows, int completed, long trims, long nacks, long retransmissions) {
        static Row of(final HtsimReport report) {
            double last = Double.NaN;
            int completed = 0;
            long resent = 0;
            for (final HtsimReport.Flow flow : report.flows()) {
                if (flow.finishUs() != null) {
                    completed++;
                    last = Double.isNaN(last) ? flow.finishUs() : Math.max(last, flow.finishUs());
                }
                resent += flow.retransmissions() == null ? 0 : flow.retransmissions();
            }
            // NDP's receivers NACK every header they get; UET's count their own.
            final long nacks = report.section("uet") != null ? report.section("uet").path("nacks").asLong() : report.deliveredHeader();
            return new Row(last, report.flows().size(), completed, report.deliveredHeader(), nacks, resent);
        }
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final StringBuilder markdown = new StringBuilder("| experiment | hosts | switches | last finish (µs) | flows done | trims | NACKs | sent again |\n")
            .append("|---|---|---|---|---|---|---|---|\n");
        final List<String> categories = new ArrayList<>();
        for (final Case c : CASES) {
            categories.add(c.shortLabel());
        }
        // NACKs and packets sent again would repeat the trims (a receiver NACKs each header, its sender sends that packet
        // again): the plot leaves them to the table.
        final String[] titles = {"last flow's finish vs UET (NSCC) on ideal switches", "packets trimmed"};
        final String[] units = {"%", "packets"};
        // The experiments' finishes lie an order of magnitude apart: each is shown against its own reference run.
        final double[] reference = new double[CASES.size()];
        for (int i = 0; i < CASES.size(); i++) {
            reference[i] = Row.of(results.get(id(CASES.get(i), "uet", "ideal")).htsim()).lastFinishUs();
        }
        final List<CategoryChart> panels = new ArrayList<>();
        for (int panel = 0; panel < titles.length; panel++) {
            final CategoryChart chart = Charts.bars(titles[panel], "experiment", units[panel]);
            chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
            chart.getStyler().setLegendFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 10));
            panels.add(chart);
        }
        try (Csv csv = new Csv(dir.resolve("uet.csv"), "experiment", "hosts", "switches", "flows", "completed", "last_finish_us", "trims", "nacks",
            "retransmissions")) {
            double fastest = Double.MAX_VALUE;
            double slowest = 0;
            for (final Hosts hosts : HOSTS) {
                for (final String mechanism : hosts.mechanisms()) {
                    final double[][] values = new double[titles.length][CASES.size()];
                    for (int i = 0; i < CASES.size(); i++) {
                        final Case c = CASES.get(i);
                        final Row row = Row.of(results.get(id(c, hosts.id(), mechanism)).htsim());
                        csv.row(c.label(), hosts.id().equals("rccc") ? "uet-rccc" : hosts.id(), mechanism, row.flows(), row.completed(), row.lastFinishUs(),
                            row.trims(), row.nacks(), row.retransmissions());
                        markdown.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %d / %d | %d | %d | %d |%n", c.label(),
                            hosts.label(), mechanism, row.lastFinishUs(), row.completed(), row.flows(), row.trims(), row.nacks(), row.retransmissions()));
                        values[0][i] = 100 * row.lastFinishUs() / reference[i];
                        values[1][i] = row.trims();
                        fastest = Math.min(fastest, values[0][i]);
                        slowest = Math.max(slowest, values[0][i]);
                    }
                    for (int panel = 0; panel < titles.length; panel++) {
                        panels.get(panel).addSeries(hosts.label() + " " + mechanism, categories, toList(values[panel]));
                    }
                }
            }
            zoom(panels.get(0), fastest, slowest);
        }
        Files.writeString(dir.resolve("uet.md"), markdown.toString());
        final List<String> svgs = Charts.save(dir, "uet", panels, 2);
        return List.of(new Figure("NDP and UET hosts on the ideal, Tofino and DoD designs, UET under NSCC and RCCC",
            "16 hosts on uet-htsim's default fat tree (three tiers, 100 Gb/s, 1 µs links, 4150-byte packets, queues of one bandwidth-delay "
                + "product), every switch ideal, tofino or dod, with NDP hosts (first window of one bandwidth-delay product), with UET "
                + "hosts paced by NSCC (REPS), and on tofino and dod with UET hosts paced by their receivers' credit (RCCC). The experiments: "
                + "15 hosts into one; three hosts into one while two of them also send to five hosts each; a permutation with one link at a "
                + "quarter of its rate. Each flow " + flowBytes + " bytes. Left: the last flow's finish against UET's (NSCC) on ideal switches in the same "
                + "experiment, the axis zoomed on the spread; right: "
                + "packets trimmed to headers (each NACKed and sent again: the table gives NACKs and packets sent again).",
            "uet.png", svgs, List.of("uet.csv", "uet.md")));
    }

    /** Starts the finish panel's axis just below the fastest run, so that the bars show how the designs and hosts differ. */
    private static void zoom(final CategoryChart chart, final double fastest, final double slowest) {
        if (slowest > fastest) {
            final double margin = (slowest - fastest) * 0.1;
            chart.getStyler().setYAxisMin(Math.max(0, Math.floor(fastest - margin)));
            chart.getStyler().setYAxisMax(Math.ceil(slowest + margin));
        }
    }

    private static List<Double> toList(final double[] values) {
        final List<Double> list = new ArrayList<>();
        for (final double value : values) {
            list.add(value);
        }
        return list;
    }
}
