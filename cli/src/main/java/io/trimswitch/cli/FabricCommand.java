package io.trimswitch.cli;

import io.trimswitch.config.Choice;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.htsim.HtsimTopology;
import io.trimswitch.network.run.NetworkProgress;
import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.run.NetworkReportBuilder;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.NetworkSpec;
import io.trimswitch.network.run.NetworkTable;
import io.trimswitch.simulator.VirtualTimeEngine;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.TransportSettings;
import io.trimswitch.simulator.Transports;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code trimswitch fabric}: a network of trimming switches and hosts, in virtual time: a leaf-spine of NDP hosts, or
 * an htsim fat tree of NDP or UET hosts. Its options are
 * defined in code (see {@link OptionsInCode}) and write the fields below: reading their annotations was most of a
 * small run's start.
 */
public final class FabricCommand extends OptionsInCode implements Callable<Integer> {
    Path file;
    Integer leaves;
    Integer spines;
    Integer hostsPerLeaf;
    Double hostRate;
    Double uplinkRate;
    Double latencyNs;
    List<String> failed;
    String leaf;
    String spine;
    String routing;
    String workload;
    Integer packets;
    Integer racks;
    Integer sendersPerRack;
    Double load;
    String flowSizes;
    Double durationUs;
    Integer initialWindow;
    Long seed;
    boolean noJitter;
    boolean connReuse;
    Path topology;
    Path matrix;
    String mechanism;
    Integer mtu;
    Integer queuePackets;
    Double endUs;
    Integer paths;
    String transport;
    String loadBalancer;
    String cc;
    String oversubscribedCc;
    Double targetDelayUs;
    List<Integer> ecn;
    Integer ackBytes;
    Double rtoUs;

    private final ReportFileOption json = new ReportFileOption();
    /** When a progress line appears; negative: never. */
    long progressAfterMs = WatchedRun.progressAfterOnATerminal();

    FabricCommand() {
        bound("--config", "FILE", Path.class,
            "Network settings (YAML); the other options override them (default: the built-in network the other defaults describe)", () -> file, v -> file = v);
        bound("--leaves", "N", Integer.class, "Leaf (top-of-rack) switches (default: 4)", () -> leaves, v -> leaves = v);
        bound("--spines", "N", Integer.class, "Spine switches; every leaf is cabled to every spine (default: 4)", () -> spines, v -> spines = v);
        bound("--hosts-per-leaf", "N", Integer.class, "Hosts in each rack (default: 4)", () -> hostsPerLeaf, v -> hostsPerLeaf = v);
        bound("--host-rate", "GBPS", Double.class, "Host links, Gb/s (default: 100)", () -> hostRate, v -> hostRate = v);
        bound("--uplink-rate", "GBPS", Double.class, "Leaf-to-spine links, Gb/s (default: 100)", () -> uplinkRate, v -> uplinkRate = v);
        bound("--latency-ns", "NS", Double.class, "One-way delay of every link, ns (default: 1000)", () -> latencyNs, v -> latencyNs = v);
        bound(OptionSpec.builder("--fail").paramLabel("LEAF:SPINE[@US]").type(List.class).auxiliaryTypes(String.class)
            .description("A link that fails: down for the whole run, or from US µs on; repeat for more. With --matrix: N, as htsim's -failed, "
                + "runs N links at a quarter of their rate (default: none)"),
            () -> failed, v -> failed = v);
        bound("--leaf", "MECHANISM", String.class, "The leaves' mechanism: " + Mechanism.labels(" | ") + " (default: tofino)", () -> leaf, v -> leaf = v);
        bound("--spine", "MECHANISM", String.class, "The spines' mechanism (default: ideal)", () -> spine, v -> spine = v);
        bound("--routing", "spray|ecmp", String.class,
            "spray: each packet on a path its sender chose (NDP); ecmp: each flow on the spine its 5-tuple hashes to (default: spray)",
            () -> routing, v -> routing = v);
        bound("--workload", "KIND", String.class, "permutation | incast | all-to-all | flows (default: permutation)", () -> workload, v -> workload = v);
        bound("--packets", "N", Integer.class, "Packets per flow (default: 1000)", () -> packets, v -> packets = v);
        bound("--racks", "N", Integer.class, "incast: racks that send into host 0 (default: 3)", () -> racks, v -> racks = v);
        bound("--senders-per-rack", "N", Integer.class, "incast: senders in each rack; 0: all its hosts (default: 0)", () -> sendersPerRack,
            v -> sendersPerRack = v);
        bound("--load", "LOAD", Double.class, "flows: load each host offers, 0..1 of its rate (default: 0.5)", () -> load, v -> load = v);
        bound("--flow-sizes", "FILE", String.class, "flows: draw each flow's size in packets from this CSV file, one per line (default: every flow --packets long)",
            () -> flowSizes, v -> flowSizes = v);
        bound("--duration-us", "US", Double.class, "flows: arrivals during the first US µs (default: 100)", () -> durationUs, v -> durationUs = v);
        bound("--initial-window", "PACKETS", Integer.class, "NDP: packets sent before waiting for pulls (default: one round trip's worth)",
            () -> initialWindow, v -> initialWindow = v);
        bound("--seed", "SEED", Long.class, "Seed of the workload, the spraying and the ideal switches' coins (default: 1)", () -> seed, v -> seed = v);
        bound(OptionSpec.builder("--no-jitter").type(boolean.class).initialValue(false)
            .description("Start every flow at time 0 (default: off, a seeded offset within one packet time)"), () -> noJitter, v -> noJitter = v);
        bound("--topology", "TOPOLOGY", Path.class,
            "An htsim fat tree (csg-htsim's and uet-htsim's .topo): Nodes, Tiers 2 or 3, Podsize, each tier's speed, radix, latency, "
                + "oversubscription, bundle and queues; needs --matrix (default: htsim's default fat tree for the matrix's Nodes)",
            () -> topology, v -> topology = v);
        bound("--matrix", "MATRIX", Path.class,
            "An htsim connection matrix (.cm or .tm): its flows 'SRC->DST start US size BYTES', triggers and failed links run across the "
                + "--topology fat tree (default: none, the leaf-spine above)", () -> matrix, v -> matrix = v);
        bound("--mechanism", "MECHANISM", String.class,
            "With --matrix: every tier's mechanism; --leaf sets the racks' and --spine the aggregation and core switches' (default: tofino racks, ideal above)",
            () -> mechanism, v -> mechanism = v);
        bound("--mtu", "BYTES", Integer.class, "With --matrix: payload bytes per packet, htsim's -mtu, 64.." + HtsimExperiment.MAX_MTU
                + "; a packet is " + HtsimExperiment.HEADER_BYTES + " bytes more on the wire, at most a jumbo frame (default: 4096)",
            () -> mtu, v -> mtu = v);
        bound("--queue-packets", "N", Integer.class,
            "With --matrix: each data queue holds N × MTU bytes, htsim's -q, unless the topology gives queue sizes (default: 15); "
                + "UET: N packets of MTU and headers, htsim_uec's -q (default: one BDP)",
            () -> queuePackets, v -> queuePackets = v);
        bound("--end-us", "US", Double.class,
            "With --matrix: stop the run at US µs, htsim's -end; flows unfinished then are counted and listed (default: a second after the last start)",
            () -> endUs, v -> endUs = v);
        bound("--paths", "N", Integer.class, "With --matrix: each flow sprays over N paths drawn at random, htsim's -paths; 0: all (default: 0)",
            () -> paths, v -> paths = v);
        bound("--transport", "ndp|uet", String.class,
            "With --matrix: the hosts' transport, NDP or Ultra Ethernet (NSCC, REPS, SACKs and NACKs; its switches mark ECN) (default: ndp)",
            () -> transport, v -> transport = v);
        bound("--load-balancer", "mixed|reps|bitmap|oblivious|single", String.class,
            "UET: each packet's entropy: good ones recycled, else sprayed skipping penalised ones (mixed, htsim_uec's default); "
                + "recycled (REPS); sprayed skipping penalised ones; sprayed in turn; one per flow. --paths N gives the entropies (default: mixed, 64)",
            () -> loadBalancer, v -> loadBalancer = v);
        bound("--cc", "sender|receiver|both", String.class,
            "UET: who paces a sender: its NSCC window (sender), its receiver's credit, pulled at the receiver's link rate (receiver, RCCC), "
                + "or both, htsim_uec's -sender_cc_only, -receiver_cc_only, -sender_cc -receiver_cc (default: sender)",
            () -> cc, v -> cc = v);
        bound("--oversubscribed-cc", "auto|on|off", String.class,
            "UET: whether each receiver slows its pulls after trims and ECN marks, so that it pulls no faster than the core carries: "
                + "where receivers pace on an oversubscribed tree (auto, as htsim_uec without a sender CC flag), wherever they pace (on, "
                + "-oversubscribed_cc), never (off, -force_disable_oversubscribed_cc) (default: auto)",
            () -> oversubscribedCc, v -> oversubscribedCc = v);
        bound(OptionSpec.builder("--conn-reuse").type(boolean.class).initialValue(false)
            .description("UET: the matrix's lines of one id are messages queued on one connection under one NSCC state, htsim_uec's -conn_reuse "
                + "(default: off, each line a flow)"), () -> connReuse, v -> connReuse = v);
        bound("--target-delay-us", "US", Double.class, "UET: NSCC's target queuing delay, µs (default: 0.75 of the network's round trip)",
            () -> targetDelayUs, v -> targetDelayUs = v);
        bound(OptionSpec.builder("--ecn").paramLabel("LO HI").hideParamSyntax(true).arity("2").type(List.class).auxiliaryTypes(Integer.class)
            .description("UET: data queues mark CE above LO packets, with a probability rising to 1 at HI, htsim's -ecn (default: 0.2 and 0.8 BDP)"),
            () -> ecn, v -> ecn = v);
        bound("--ack-bytes", "BYTES", Integer.class, "UET: a receiver acknowledges at least every BYTES received (default: 16384)",
            () -> ackBytes, v -> ackBytes = v);
        bound("--rto-us", "US", Double.class, "UET: the retransmission timeout, µs (default: 15 µs and six data queues' drain time)",
            () -> rtoUs, v -> rtoUs = v);
        group(json, "json");
        group(new HelpOptions(), "help");
        model().name("fabric");
        model().usageMessage().sortOptions(false).description(
            "Runs a workload across a network of switches and NDP or UET hosts in virtual time.",
            "A leaf-spine of NDP hosts, or an htsim fat tree (--topology, --matrix) of NDP or UET hosts (--transport).",
            "Reports flow completion times, goodput, and trims, DoD queues and drops per tier, per switch and per port.",
            "With no arguments: 4 leaves × 4 hosts, 4 spines, 100 Gb/s, tofino leaves, ideal spines, a sprayed permutation of 1000-packet flows.");
    }

    @Override
    public Integer call() {
        if (matrix != null || topology != null) {
            return htsim();
        }
        refuseWithoutMatrix("--mechanism", mechanism);
        refuseWithoutMatrix("--mtu", mtu);
        refuseWithoutMatrix("--queue-packets", queuePackets);
        refuseWithoutMatrix("--end-us", endUs);
        refuseWithoutMatrix("--paths", paths);
        refuseWithoutMatrix("--transport", transport);
        refuseUetOnly();
        final NetworkSpec network = file == null ? new NetworkSpec() : NetworkSettings.parse(SettingsFiles.read(file), file.toString());
        applyOverrides(network);
        json.checkWritable();
        final NetworkSettings settings;
        try {
            settings = NetworkSettings.of(network);
        } catch (final ConfigException refused) {
            throw OptionKeys.FABRIC.named(refused, model());
        }
        final NetworkRun run = NetworkRun.of(settings);
        final NetworkReport report = NetworkReportBuilder.build(run, watched(run), settings);
        return show(report, report);
    }

    /** Runs {@code run} with a progress line on a terminal, and one line if it is interrupted. */
    private VirtualTimeEngine.Outcome watched(final NetworkRun run) {
        final NetworkProgress progress = new NetworkProgress(run);
        try (WatchedRun watched = WatchedRun.start("fabric", progress::flowsCompleted, progress.flows(), progress::virtualPicos,
            model().commandLine().getErr(), progressAfterMs)) {
            return run.run();
        }
    }

    /** Prints {@code table}'s table and writes {@code written} as JSON if asked; 1 when a packet went unaccounted for. */
    private int show(final NetworkReport table, final Object written) {
        final java.io.PrintWriter text = json.text(model().commandLine().getOut(), model().commandLine().getErr());
        text.print(NetworkTable.render(table));
        if (written instanceof HtsimReport htsim) {
            text.print(htsim.messagesText());
            text.print(htsim.unfinishedText());
        }
        text.flush();
        json.write(written, model().commandLine().getOut());
        if (!table.conservation()) {
            model().commandLine().getErr().println("trimswitch: packet conservation violated: sent " + table.sent() + ", accounted "
                + (table.deliveredWhole() + table.deliveredHeader() + table.dropped()));
            return 1;
        }
        return 0;
    }

    private static void refuseWithoutMatrix(final String option, final Object value) {
        if (value != null) {
            throw new ConfigException(option + " applies to an htsim experiment: give its connection matrix with --matrix");
        }
    }

    /** An experiment in htsim's files: the leaf-spine's own options have no meaning there and are refused. */
    private Integer htsim() {
        if (matrix == null) {
            throw new ConfigException("--topology needs --matrix: the flows to run across it");
        }
        final Object[][] leafSpineOnly = {{"--config", file}, {"--leaves", leaves}, {"--spines", spines}, {"--hosts-per-leaf", hostsPerLeaf},
            {"--host-rate", hostRate}, {"--uplink-rate", uplinkRate}, {"--latency-ns", latencyNs}, {"--workload", workload}, {"--packets", packets},
            {"--racks", racks}, {"--senders-per-rack", sendersPerRack}, {"--load", load}, {"--flow-sizes", flowSizes}, {"--duration-us", durationUs},
            {"--no-jitter", noJitter ? Boolean.TRUE : null}};
        for (final Object[] option : leafSpineOnly) {
            if (option[1] != null) {
                throw new ConfigException(option[0] + " does not apply with --matrix: the topology and the matrix describe the network and its flows");
            }
        }
        Integer failedLinks = null;
        if (failed != null) {
            if (failed.size() != 1 || !failed.get(0).strip().matches("[0-9]{1,7}")) {
                throw new ConfigException("--fail takes one number with --matrix (htsim's -failed: links at a quarter of their rate), got '"
                    + String.join(" ", failed) + "'");
            }
            failedLinks = io.trimswitch.config.WholeNumbers.parseInt(failed.get(0).strip());
        }
        final Transport hosts = transport(transport);
        final boolean uet = hosts.name().equals(TransportChoice.UET.label());
        if (!uet) {
            refuseUetOnly();
        }
        final TransportSettings own = hosts.settings(uet ? transportBlock() : java.util.Map.of());
        json.checkWritable();
        final HtsimTopology tree = topology == null ? null : HtsimTopology.load(topology);
        final HtsimMatrix flows = HtsimMatrix.load(matrix);
        HtsimExperiment experiment = experiment(tree, flows, queuePackets, failedLinks, uet);
        final Integer queue = queuePackets == null ? NetworkRun.defaultQueuePackets(experiment, hosts, true) : null;
        if (queue != null) {
            experiment = experiment(tree, flows, queue, failedLinks, uet);
        }
        final NetworkRun run = NetworkRun.of(experiment, hosts, own);
        final HtsimReport report = NetworkReportBuilder.build(run, watched(run), experiment);
        return show(report.asNetworkReport(), report);
    }

    /** The hosts' transports on an htsim experiment that this command documents; any other registered transport runs too. */
    private enum TransportChoice implements Choice {
        NDP, UET
    }

    /** The transport {@code name} chooses: NDP's when none is named. */
    private static Transport transport(final String name) {
        final Transport registered = name == null ? Transports.named(TransportChoice.NDP.label())
            : Transports.find(name.strip().toLowerCase(java.util.Locale.ROOT));
        return registered != null ? registered : Transports.named(Settings.choice("--transport", name, TransportChoice.values()).label());
    }

    private HtsimExperiment experiment(final HtsimTopology tree, final HtsimMatrix flows, final Integer queue, final Integer failedLinks,
        final boolean uet) {
        // UET's initial window is its own setting; NDP's sizes the pool's rows, so UET's leaves it at its default.
        return HtsimExperiment.of(tree, flows, new HtsimExperiment.Options(
            leaf != null ? leaf : mechanism, spine != null ? spine : mechanism, spine != null ? spine : mechanism, mtu, queue,
            uet ? null : initialWindow, paths, routing, failedLinks, seed, endUs, uet));
    }

    /** The UET hosts' settings the command line gives, as the transport's block. */
    private java.util.Map<String, Object> transportBlock() {
        final java.util.Map<String, Object> block = new java.util.HashMap<>();
        // An htsim experiment runs as htsim_uec runs it by default: with mixed load balancing.
        block.put("loadBalancer", loadBalancer == null ? "mixed" : loadBalancer);
        block.put("entropies", paths);
        block.put("targetDelayUs", targetDelayUs);
        block.put("initialWindowPackets", initialWindow);
        block.put("rtoUs", rtoUs);
        block.put("connectionReuse", connReuse);
        block.put("cc", cc);
        block.put("oversubscribedCc", oversubscribedCc);
        block.put("ackBytes", ackBytes);
        block.put("ecn", ecn);
        return block;
    }

    /** The options that only UET hosts read: refused for NDP's, in one line naming the option. */
    private void refuseUetOnly() {
        final Object[][] uetOnly = {{"--load-balancer", loadBalancer}, {"--cc", cc}, {"--oversubscribed-cc", oversubscribedCc}, {"--conn-reuse", connReuse ? Boolean.TRUE : null}, {"--target-delay-us", targetDelayUs}, {"--ecn", ecn},
            {"--ack-bytes", ackBytes}, {"--rto-us", rtoUs}};
        for (final Object[] option : uetOnly) {
            if (option[1] != null) {
                throw new ConfigException(option[0] + " applies to UET hosts: add --transport uet (and --matrix)");
            }
        }
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
                end.leaf = io.trimswitch.config.WholeNumbers.parseInt(parts[0].strip());
                end.spine = io.trimswitch.config.WholeNumbers.parseInt(parts[1].strip());
                end.atUs = at.length == 2 ? Double.parseDouble(at[1].strip()) : 0;
                return end;
            }
        } catch (final NumberFormatException e) {
            // Reported below.
        }
        throw new ConfigException("--fail takes LEAF:SPINE or LEAF:SPINE@US (when it fails, µs), got '" + text + "'");
    }
}
