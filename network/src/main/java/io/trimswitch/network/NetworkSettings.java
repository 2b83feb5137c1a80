package io.trimswitch.network;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.trimswitch.config.Choice;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsFiles;
import io.trimswitch.config.SettingsValidation;
import io.trimswitch.simulator.EventQueue;
import io.trimswitch.simulator.FlowPlan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A network's settings, checked and typed: the topology, the path choice, each tier's switch {@link Settings} (its
 * ports and their rates from the topology), the workload and the hosts. Immutable; a report echoes it.
 */
@JsonPropertyOrder({"topology", "routing", "leafMechanism", "spineMechanism", "workload", "transport"})
public record NetworkSettings(
    Topology topology, Routing routing, @JsonIgnore Settings leaf, @JsonIgnore Settings spine, Workload workload, Transport transport,
    @JsonIgnore int[] flowSizes) {

    /** Most hosts a network takes (host h has the address 10.x.y.1, h = 256 x + y). */
    public static final int MAX_HOSTS = 4096;

    /** How a leaf picks the spine for a packet that leaves its rack. */
    public enum Routing implements Choice {
        /** The packet's sender chose the path, per packet, from a seeded permutation of every usable spine. */
        SPRAY,
        /** A hash of the packet's addresses and ports: one path per flow. */
        ECMP
    }

    public enum WorkloadKind implements Choice {
        PERMUTATION, INCAST, ALL_TO_ALL, FLOWS
    }

    @JsonPropertyOrder({"leaves", "spines", "hostsPerLeaf", "hostRateGbps", "uplinkRateGbps", "linkLatencyNs", "failedLinks",
        "failureDetectionUs"})
    public record Topology(int leaves, int spines, int hostsPerLeaf, double hostRateGbps, double uplinkRateGbps, double linkLatencyNs,
        List<Link> failedLinks, double failureDetectionUs) {
        public int hosts() {
            return leaves * hostsPerLeaf;
        }

        /** Whether the link between {@code leaf} and {@code spine} is down from the start. */
        public boolean failed(final int leaf, final int spine) {
            for (final Link link : failedLinks) {
                if (link.leaf() == leaf && link.spine() == spine && link.atUs() == 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A link that fails at {@code atUs} (0: down from the start). */
    public record Link(int leaf, int spine, double atUs) {
    }

    @JsonPropertyOrder({"kind", "packets", "packetBytes", "racks", "sendersPerRack", "load", "flowSizes", "durationUs", "startJitter", "seed"})
    public record Workload(WorkloadKind kind, int packets, int packetBytes, int racks, int sendersPerRack, double load, String flowSizes,
        double durationUs, boolean startJitter, long seed) {
    }

    @JsonPropertyOrder({"initialWindowPackets", "rtoUs", "maxDurationUs"})
    public record Transport(int initialWindowPackets, double rtoUs, double maxDurationUs) {
    }

    /** The flow sizes to draw from (a copy: the settings stay as parsed). */
    @Override
    @JsonIgnore
    public int[] flowSizes() {
        return flowSizes.clone();
    }

    @com.fasterxml.jackson.annotation.JsonProperty("leafMechanism")
    public String leafMechanism() {
        return leaf.mechanism().label();
    }

    @com.fasterxml.jackson.annotation.JsonProperty("spineMechanism")
    public String spineMechanism() {
        return spine.mechanism().label();
    }

    /** Reads and checks a network's YAML file. */
    public static NetworkSettings load(final Path file) {
        return of(parse(SettingsFiles.read(file), file.toString()));
    }

    /** The editable form of a network's YAML text; {@code source} names it in messages. */
    public static NetworkSpec parse(final String yaml, final String source) {
        return SettingsFiles.parse(yaml, source, NetworkSpec.class, NetworkSpec::new);
    }

    /** Checks every value of {@code spec}; any impossible one is a {@link ConfigException} naming it. */
    public static NetworkSettings of(final NetworkSpec spec) {
        final NetworkSpec.Topology t = required("topology", spec.topology);
        SettingsValidation.within("topology.leaves", t.leaves, 1, 256);
        SettingsValidation.within("topology.spines", t.spines, 0, 64);
        SettingsValidation.within("topology.hostsPerLeaf", t.hostsPerLeaf, 1, 1024);
        if (t.spines == 0 && t.leaves > 1) {
            throw new ConfigException("topology.spines must be at least 1 when there is more than one leaf, got 0");
        }
        if ((long) t.leaves * t.hostsPerLeaf > MAX_HOSTS) {
            throw new ConfigException("topology has " + (long) t.leaves * t.hostsPerLeaf + " hosts (leaves × hostsPerLeaf); at most " + MAX_HOSTS);
        }
        SettingsValidation.rate("topology.hostRateGbps", t.hostRateGbps);
        SettingsValidation.rate("topology.uplinkRateGbps", t.uplinkRateGbps);
        SettingsValidation.within("topology.linkLatencyNs", t.linkLatencyNs, 0, 1e6, "ns");
        final NetworkSpec.Transport host = required("transport", spec.transport);
        SettingsValidation.within("transport.maxDurationUs", host.maxDurationUs, 0.001, EventQueue.MAX_TIME / 1e6 / 2, "µs");
        SettingsValidation.within("topology.failureDetectionUs", t.failureDetectionUs, 0, host.maxDurationUs, "µs");
        final List<Link> failed = failedLinks(required("topology.failedLinks", t.failedLinks), t, host.maxDurationUs);
        final Topology topology = new Topology(t.leaves, t.spines, t.hostsPerLeaf, t.hostRateGbps, t.uplinkRateGbps, t.linkLatencyNs,
            List.copyOf(failed), t.failureDetectionUs);
        final Routing routing = Settings.choice("routing", required("routing", spec.routing), Routing.values());

        final NetworkSpec.Workload w = required("workload", spec.workload);
        final WorkloadKind kind = Settings.choice("workload.kind", required("workload.kind", w.kind), WorkloadKind.values());
        SettingsValidation.within("workload.packets", w.packets, 1, 65_535);
        if (kind == WorkloadKind.INCAST) {
            if (t.leaves < 2) {
                throw new ConfigException("workload.kind incast sends across racks and needs at least 2 leaves, got " + t.leaves);
            }
            SettingsValidation.within("workload.racks", w.racks, 1, t.leaves - 1);
            SettingsValidation.within("workload.sendersPerRack", w.sendersPerRack, 0, t.hostsPerLeaf);
        }
        if (kind == WorkloadKind.FLOWS) {
            SettingsValidation.within("workload.load", w.load, 0.001, 1, "of the host rate");
            SettingsValidation.within("workload.durationUs", w.durationUs, 0.001, 1e6, "µs");
        }
        if (kind == WorkloadKind.PERMUTATION || kind == WorkloadKind.ALL_TO_ALL || kind == WorkloadKind.FLOWS) {
            if (topology.hosts() < 2) {
                throw new ConfigException("workload.kind " + kind.label() + " needs at least 2 hosts, got " + topology.hosts());
            }
        }
        if (kind == WorkloadKind.ALL_TO_ALL && (long) topology.hosts() * (topology.hosts() - 1) > 65_536) {
            throw new ConfigException("workload.kind all-to-all on " + topology.hosts() + " hosts makes "
                + (long) topology.hosts() * (topology.hosts() - 1) + " flows; at most 65536 fit (at most 256 hosts)");
        }
        SettingsValidation.flowSizesFile("workload.flowSizes", w.flowSizes);
        final int[] flowSizes = w.flowSizes == null ? new int[] {w.packets} : FlowPlan.flowSizeChoices(Path.of(w.flowSizes));
        final Workload workload = new Workload(kind, w.packets, w.packetBytes, w.racks, w.sendersPerRack, w.load, w.flowSizes, w.durationUs,
            w.startJitter, w.seed);

        final int window;
        if (host.initialWindowPackets == null) {
            final double packetNs = w.packetBytes * 8 / t.hostRateGbps;
            final int hops = t.spines == 0 ? 2 : 4;
            window = (int) Math.min(65_535, Math.ceil(2 * hops * (t.linkLatencyNs + packetNs) / packetNs));
        } else {
            SettingsValidation.within("transport.initialWindowPackets", host.initialWindowPackets, 1, 65_535);
            window = host.initialWindowPackets;
        }
        SettingsValidation.within("transport.rtoUs", host.rtoUs, 0.001, 1e6, "µs");
        final Transport transport = new Transport(window, host.rtoUs, host.maxDurationUs);

        final int leafPorts = t.hostsPerLeaf + t.spines;
        final Settings leaf = tier("leaf", required("leaf", spec.leaf), leafPorts, t.hostRateGbps, t.hostsPerLeaf, t.uplinkRateGbps,
            topology, workload, transport);
        final Settings spine = t.spines == 0 ? leaf
            : tier("spine", required("spine", spec.spine), t.leaves, t.uplinkRateGbps, t.leaves, t.uplinkRateGbps, topology, workload, transport);
        return new NetworkSettings(topology, routing, leaf, spine, workload, transport, flowSizes);
    }

    /** Each failed link in range, none twice, and every pair of leaves still joined through some spine once all have failed. */
    private static List<Link> failedLinks(final List<NetworkSpec.LinkEnd> ends, final NetworkSpec.Topology t, final double maxDurationUs) {
        final List<Link> links = new ArrayList<>();
        final Set<Link> seen = new HashSet<>();
        for (int i = 0; i < ends.size(); i++) {
            final NetworkSpec.LinkEnd end = ends.get(i);
            if (end == null) {
                throw new ConfigException("topology.failedLinks[" + i + "] is empty: it needs leaf and spine");
            }
            SettingsValidation.within("topology.failedLinks[" + i + "].leaf", end.leaf, 0, t.leaves - 1);
            SettingsValidation.within("topology.failedLinks[" + i + "].spine", end.spine, 0, Math.max(0, t.spines - 1));
            SettingsValidation.within("topology.failedLinks[" + i + "].atUs", end.atUs, 0, maxDurationUs, "µs");
            final Link link = new Link(end.leaf, end.spine, 0);
            if (!seen.add(link)) {
                throw new ConfigException("topology.failedLinks[" + i + "] names leaf " + end.leaf + " to spine " + end.spine + " twice");
            }
            links.add(new Link(end.leaf, end.spine, end.atUs));
        }
        for (int a = 0; a < t.leaves; a++) {
            for (int b = a + 1; b < t.leaves; b++) {
                boolean joined = false;
                for (int s = 0; s < t.spines && !joined; s++) {
                    joined = !seen.contains(new Link(a, s, 0)) && !seen.contains(new Link(b, s, 0));
                }
                if (!joined) {
                    throw new ConfigException("topology.failedLinks leave leaf " + a + " and leaf " + b + " without a spine that reaches both");
                }
            }
        }
        return links;
    }

    /**
     * A tier's switch settings: its part of the file, with {@code ports} ports at {@code rateGbps} of which those from
     * {@code fastPorts} on run at {@code uplinkGbps}, NDP hosts on shared links, and the network's frames and seed.
     */
    private static Settings tier(
        final String name, final NetworkSpec.SwitchPart part, final int ports, final double rateGbps, final int fastPorts, final double uplinkGbps,
        final Topology topology, final Workload workload, final Transport transport) {
        final NetworkSpec.Fabric fabric = required(name + ".fabric", part.fabric);
        SettingsValidation.within(name + ".fabric.pipelines", fabric.pipelines, 1, 64);
        final int pipelines = Math.min(fabric.pipelines, ports);
        final List<Settings.Port> own = new ArrayList<>();
        if (uplinkGbps != rateGbps) {
            for (int port = 0; port < ports; port++) {
                own.add(Settings.Port.DEFAULTS.withRateGbps(port >= fastPorts ? uplinkGbps : null));
            }
        }
        final String mechanism = required(name + ".mechanism", part.mechanism);
        final Settings.Qos qos = required(name + ".qos", part.qos);
        final Settings.Recirculation recirculation = required(name + ".recirculation", part.recirculation);
        final Settings.Trim trim = required(name + ".trim", part.trim);
        final Settings.Control control = required(name + ".control", part.control);
        try {
            return new Settings(Mechanism.parse(mechanism), Settings.Clock.VIRTUAL,
                new Settings.Fabric(pipelines, (ports + pipelines - 1) / pipelines, rateGbps, fabric.dataQueuePackets, fabric.headerQueuePackets,
                    fabric.headersPerData),
                qos, recirculation, trim, control,
                Settings.Workload.DEFAULTS.withPackets(workload.packets()).withPacketBytes(workload.packetBytes()).withSeed(workload.seed()),
                Settings.Transport.DEFAULTS.withKind(Settings.TransportKind.NDP).withHosts(Settings.HostLayout.SHARED)
                    .withPropagationNs(topology.linkLatencyNs()).withInitialWindowPackets(transport.initialWindowPackets())
                    .withRtoUs(transport.rtoUs()).withMaxDurationUs(transport.maxDurationUs()),
                Settings.RealTime.DEFAULTS, own, Settings.Forwarding.DEFAULTS, Settings.Metrics.DEFAULTS).validate();
        } catch (final ConfigException e) {
            throw new ConfigException(name + ": " + e.getMessage());
        }
    }

    private static <T> T required(final String name, final T value) {
        if (value == null) {
            throw new ConfigException(name + " may not be null; leave it out for its default");
        }
        return value;
    }
}
