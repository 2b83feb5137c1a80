package io.trimswitch.cli;

import io.trimswitch.config.ConfigException;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.NetworkReportBuilder;
import io.trimswitch.network.NetworkRun;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import io.trimswitch.network.NetworkTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code trimswitch fabric}: a leaf-spine network of trimming switches and NDP hosts, in virtual time. */
@Command(
    addMethodSubcommands = false,
    name = "fabric",
    sortOptions = false,
    description = {
        "Runs a workload across a leaf-spine network of switches and NDP hosts in virtual time.",
        "Reports flow completion times, goodput, and trims, DoD queues and drops per tier, per switch and per port.",
        "With no arguments: 4 leaves × 4 hosts, 4 spines, 100 Gb/s, tofino leaves, ideal spines, a sprayed permutation of 1000-packet flows."})
public final class FabricCommand implements Callable<Integer>, OptionGroup.User {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "Network settings (YAML); the other options override them (default: the built-in network the other defaults describe)")
    Path file;

    @Option(names = "--leaves", paramLabel = "N", description = "Leaf (top-of-rack) switches (default: 4)")
    Integer leaves;

    @Option(names = "--spines", paramLabel = "N", description = "Spine switches; every leaf is cabled to every spine (default: 4)")
    Integer spines;

    @Option(names = "--hosts-per-leaf", paramLabel = "N", description = "Hosts in each rack (default: 4)")
    Integer hostsPerLeaf;

    @Option(names = "--host-rate", paramLabel = "GBPS", description = "Host links, Gb/s (default: 100)")
    Double hostRate;

    @Option(names = "--uplink-rate", paramLabel = "GBPS", description = "Leaf-to-spine links, Gb/s (default: 100)")
    Double uplinkRate;

    @Option(names = "--latency-ns", paramLabel = "NS", description = "One-way delay of every link, ns (default: 1000)")
    Double latencyNs;

    @Option(names = "--fail", paramLabel = "LEAF:SPINE[@US]", description = "A link that fails: down for the whole run, or from US µs on; repeat for more (default: none)")
    List<String> failed;

    @Option(names = "--leaf", paramLabel = "MECHANISM", description = "The leaves' mechanism: ideal | mod | dod | tofino | tofino2 (default: tofino)")
    String leaf;

    @Option(names = "--spine", paramLabel = "MECHANISM", description = "The spines' mechanism (default: ideal)")
    String spine;

    @Option(names = "--routing", paramLabel = "spray|ecmp",
        description = "spray: each packet on a path its sender chose (NDP); ecmp: each flow on the spine its 5-tuple hashes to (default: spray)")
    String routing;

    @Option(names = "--workload", paramLabel = "KIND", description = "permutation | incast | all-to-all | flows (default: permutation)")
    String workload;

    @Option(names = "--packets", paramLabel = "N", description = "Packets per flow (default: 1000)")
    Integer packets;

    @Option(names = "--racks", paramLabel = "N", description = "incast: racks that send into host 0 (default: 3)")
    Integer racks;

    @Option(names = "--senders-per-rack", paramLabel = "N", description = "incast: senders in each rack; 0: all its hosts (default: 0)")
    Integer sendersPerRack;

    @Option(names = "--load", paramLabel = "LOAD", description = "flows: load each host offers, 0..1 of its rate (default: 0.5)")
    Double load;

    @Option(names = "--flow-sizes", paramLabel = "FILE.csv", description = "flows: draw each flow's size in packets from this CSV, one per line (default: every flow --packets long)")
    String flowSizes;

    @Option(names = "--duration-us", paramLabel = "US", description = "flows: arrivals during the first US µs (default: 100)")
    Double durationUs;

    @Option(names = "--initial-window", paramLabel = "PACKETS", description = "NDP: packets sent before waiting for pulls (default: one round trip's worth)")
    Integer initialWindow;

    @Option(names = "--seed", paramLabel = "SEED", description = "Seed of the workload, the spraying and the ideal switches' coins (default: 1)")
    Long seed;

    @Option(names = "--no-jitter", description = "Start every flow at time 0 (default: off, a seeded offset within one packet time)")
    boolean noJitter;

    private final ReportFileOption json = new ReportFileOption();

    @Override
    public void addOptionGroups(final CommandSpec command) {
        json.addTo(command, "json");
        new HelpOptions().addTo(command, "help");
    }

    @Override
    public Integer call() {
        final NetworkSpec network = file == null ? new NetworkSpec() : NetworkSettings.parse(SettingsFiles.read(file), file.toString());
        applyOverrides(network);
        json.checkWritable();
        final NetworkSettings settings = NetworkSettings.of(network);
        final NetworkRun run = NetworkRun.of(settings);
        final NetworkReport report = NetworkReportBuilder.build(run, run.run(), settings);
        final java.io.PrintWriter text = json.text(spec.commandLine().getOut(), spec.commandLine().getErr());
        text.print(NetworkTable.render(report));
        text.flush();
        json.write(report, spec.commandLine().getOut());
        if (!report.conservation()) {
            spec.commandLine().getErr().println("trimswitch: packet conservation violated: sent " + report.sent() + ", accounted "
                + (report.deliveredWhole() + report.deliveredHeader() + report.dropped()));
            return 1;
        }
        return 0;
    }

    private void applyOverrides(final NetworkSpec network) {
        // The file's reader refuses a null section, so every section is there.
        final NetworkSpec.Topology t = network.topology;
        t.leaves = leaves != null ? leaves : t.leaves;
        t.spines = spines != null ? spines : t.spines;
        t.hostsPerLeaf = hostsPerLeaf != null ? hostsPerLeaf : t.hostsPerLeaf;
        t.hostRateGbps = hostRate != null ? hostRate : t.hostRateGbps;
        t.uplinkRateGbps = uplinkRate != null ? uplinkRate : t.uplinkRateGbps;
        t.linkLatencyNs = latencyNs != null ? latencyNs : t.linkLatencyNs;
        if (failed != null) {
            for (final String link : failed) {
                t.failedLinks.add(link(link));
            }
        }
        network.leaf.mechanism = leaf != null ? leaf : network.leaf.mechanism;
        network.spine.mechanism = spine != null ? spine : network.spine.mechanism;
        network.routing = routing != null ? routing : network.routing;
        final NetworkSpec.Workload w = network.workload;
        w.kind = workload != null ? workload : w.kind;
        w.packets = packets != null ? packets : w.packets;
        w.racks = racks != null ? racks : w.racks;
        w.sendersPerRack = sendersPerRack != null ? sendersPerRack : w.sendersPerRack;
        w.load = load != null ? load : w.load;
        w.flowSizes = flowSizes != null ? flowSizes : w.flowSizes;
        w.durationUs = durationUs != null ? durationUs : w.durationUs;
        w.seed = seed != null ? seed : w.seed;
        w.startJitter = !noJitter && w.startJitter;
        network.transport.initialWindowPackets = initialWindow != null ? initialWindow : network.transport.initialWindowPackets;
    }

    private static NetworkSpec.LinkEnd link(final String text) {
        final String[] at = text.split("@", -1);
        final String[] parts = at[0].split(":", -1);
        try {
            if (parts.length == 2 && at.length <= 2) {
                final NetworkSpec.LinkEnd end = new NetworkSpec.LinkEnd();
                end.leaf = Integer.parseInt(parts[0].strip());
                end.spine = Integer.parseInt(parts[1].strip());
                end.atUs = at.length == 2 ? Double.parseDouble(at[1].strip()) : 0;
                return end;
            }
        } catch (final NumberFormatException e) {
            // Reported below.
        }
        throw new ConfigException("--fail takes LEAF:SPINE or LEAF:SPINE@US (when it fails, µs), got '" + text + "'");
    }
}
