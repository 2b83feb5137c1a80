package io.trimswitch.evaluation.evaluate;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import io.trimswitch.network.run.NetworkTable;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Trimming switches in a leaf-spine fabric of 128 hosts (8 racks of 16, 100 Gb/s): flow completion times and goodput with
 * ideal top-of-rack switches against Tofino-style ones (with ideal spines, and with Tofino-style spines too), for a
 * permutation and for an incast from three racks, on a fabric with full bisection and on one oversubscribed 4:1.
 */
final class FabricExperiment implements Experiment {
    /** A fabric of the experiment: its spines (16: full bisection; 4: 4:1 oversubscribed). */
    record Fabric(String label, int spines) {
    }

    record Workload(String label, String kind, int packets) {
    }

    /** The leaves' and the spines' mechanisms. */
    record Design(String leaf, String spine) {
        String label() {
            return leaf + " ToR, " + spine + " spine";
        }

        String id() {
            return leaf + "-" + spine;
        }
    }

    static final List<Fabric> FABRICS = List.of(new Fabric("full bisection", 16), new Fabric("4:1 oversubscribed", 4));
    static final List<Workload> WORKLOADS = List.of(
        new Workload("permutation", "permutation", 1000), new Workload("incast from 3 racks", "incast", 200));
    static final List<Design> DESIGNS = List.of(new Design("ideal", "ideal"), new Design("tofino", "ideal"), new Design("tofino", "tofino"));

    @Override
    public String name() {
        return "fabric";
    }

    static String id(final Fabric fabric, final Workload workload, final Design design) {
        return "fabric-" + fabric.spines() + "spines-" + workload.kind() + "-" + design.id();
    }

    static NetworkSettings settings(final Fabric fabric, final Workload workload, final Design design) {
        final NetworkSpec spec = new NetworkSpec();
        spec.topology.leaves = 8;
        spec.topology.hostsPerLeaf = 16;
        spec.topology.spines = fabric.spines();
        spec.leaf.mechanism = design.leaf();
        spec.spine.mechanism = design.spine();
        spec.workload.kind = workload.kind();
        spec.workload.packets = workload.packets();
        return NetworkSettings.of(spec);
    }

    @Override
    public List<RunSpec> plan() {
        final List<RunSpec> specs = new ArrayList<>();
        for (final Fabric fabric : FABRICS) {
            for (final Workload workload : WORKLOADS) {
                for (final Design design : DESIGNS) {
                    specs.add(RunSpec.network(id(fabric, workload, design), settings(fabric, workload, design)));
                }
            }
        }
        return specs;
    }

    @Override
    public List<Figure> write(final Map<String, RunResult> results, final Path dir) throws IOException {
        final List<XYChart> panels = new ArrayList<>();
        final StringBuilder markdown = new StringBuilder()
            .append("| fabric | workload | design | FCT p50 (µs) | FCT p99 (µs) | FCT max (µs) | goodput mean (Gb/s) | trims at leaves | trims at spines | max DoD queue | dropped |\n")
            .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        try (Csv csv = new Csv(dir.resolve("fabric.csv"), "fabric", "workload", "leaf", "spine", "flows", "completed", "fct_p50_us",
            "fct_p90_us", "fct_p99_us", "fct_max_us", "goodput_mean_gbps", "goodput_min_gbps", "leaf_trims", "spine_trims", "max_dod_queue",
            "header_queue_drops", "dropped", "retransmissions")) {
            for (final Fabric fabric : FABRICS) {
                for (final Workload workload : WORKLOADS) {
                    final XYChart cdf = Charts.xy(workload.label() + ", " + fabric.label(), "flow completion time (µs)", "fraction of flows");
                    cdf.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
                    cdf.getStyler().setYAxisMin(0.0);
                    cdf.getStyler().setYAxisMax(1.0);
                    cdf.getStyler().setYAxisDecimalPattern("0.0");
                    for (final Design design : DESIGNS) {
                        final NetworkReport report = results.get(id(fabric, workload, design)).network();
                        final double[] completions = NetworkTable.completionsUs(report);
                        Arrays.sort(completions);
                        final double[] fraction = new double[completions.length];
                        for (int i = 0; i < fraction.length; i++) {
                            fraction[i] = (i + 1.0) / fraction.length;
                        }
                        Charts.line(cdf, design.label(), completions, fraction);
                        final NetworkReport.TierReport leaves = report.tiers().get(0);
                        final NetworkReport.TierReport spines = report.tiers().get(1);
                        final int maxDod = Math.max(leaves.maxDodQueue(), spines.maxDodQueue());
                        final long retransmissions = report.flows().stream().mapToLong(f -> f.retransmissions() == null ? 0 : f.retransmissions()).sum();
                        csv.row(fabric.label(), workload.label(), design.leaf(), design.spine(), report.flows().size(), report.flowsCompleted(),
                            report.completionUs().p50(), report.completionUs().p90(), report.completionUs().p99(), report.completionUs().max(),
                            report.goodput().meanGbps(), report.goodput().minGbps(), leaves.trims().total(), spines.trims().total(), maxDod,
                            report.drops().getOrDefault("headerQueueFull", 0L), report.dropped(), retransmissions);
                        markdown.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %.1f | %.2f | %d | %d | %d | %d |%n",
                            fabric.label(), workload.label(), design.label(), report.completionUs().p50(), report.completionUs().p99(),
                            report.completionUs().max(), report.goodput().meanGbps(), leaves.trims().total(), spines.trims().total(), maxDod,
                            report.dropped()));
                    }
                    panels.add(cdf);
                }
            }
        }
        Files.writeString(dir.resolve("fabric.md"), markdown.toString());
        final List<String> svgs = Charts.save(dir, "fabric", panels, 2);
        return List.of(new Figure("Trimming across a leaf-spine fabric",
            "128 NDP hosts in 8 racks of 16 at 100 Gb/s, packets sprayed over the spines, each sender's first window one round trip's "
                + "worth. Top: 16 spines (full bisection); bottom: 4 spines (4:1 oversubscribed). Left: a permutation of 1000-packet flows "
                + "across racks; right: 48 hosts of 3 racks sending 200 packets each to one host. Each line is the distribution of flow "
                + "completion times under ideal top-of-rack switches, Tofino-style ones with ideal spines, and Tofino-style switches in "
                + "both tiers.",
            "fabric.png", svgs, List.of("fabric.csv", "fabric.md")));
    }
}
