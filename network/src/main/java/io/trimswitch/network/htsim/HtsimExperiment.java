package io.trimswitch.network.htsim;

import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.topology.FatTree;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.trimswitch.config.ConfigException;
import io.trimswitch.config.Mechanism;
import io.trimswitch.config.Settings;
import io.trimswitch.config.SettingsValidation;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.Picos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An experiment written for htsim, run here: its topology ({@code .topo}, or htsim's default fat tree for the matrix's
 * nodes), its connection matrix, and the options of htsim's command line that change what is simulated ({@code -mtu},
 * {@code -q}, {@code -cwnd}, {@code -paths}, {@code -failed}, {@code -strat}), with each tier's mechanism. Checked and
 * immutable; the per-switch settings and the flows are derived once.
 */
@JsonPropertyOrder({"topologyFile", "matrixFile", "nodes", "tiers", "torMechanism", "aggMechanism", "coreMechanism", "mtu", "queuePackets",
    "initialWindowPackets", "paths", "routing", "failedLinks", "seed", "rtoUs", "maxDurationUs"})
public final class HtsimExperiment {
    /** What a data packet carries beyond its payload, and all a trimmed packet or an ACK, NACK or PULL is: htsim's 64 bytes. */
    public static final int HEADER_BYTES = 64;
    /** The largest {@code --mtu}: with the headers, a packet is at most the jumbo frame every buffer of the pool holds. */
    public static final int MAX_MTU = PacketPool.JUMBO_FRAME_BYTES - HEADER_BYTES;
    /** htsim cuts a link that {@code -failed} names to this fraction of its rate (uet-htsim's default ratio). */
    public static final double FAILED_LINK_RATE = 0.25;

    /**
     * The options, as a command line or a test gives them; null: htsim_ndp's default. {@code endUs}: when the run stops
     * (htsim's -end; default: a second after the last start); {@code wholePackets}: {@code queuePackets} counts packets of
     * MTU and headers, as htsim_uec's -q, not MTUs of payload, as htsim_ndp's.
     */
    public record Options(String torMechanism, String aggMechanism, String coreMechanism, Integer mtu, Integer queuePackets, Integer initialWindow,
        Integer paths, String routing, Integer failedLinks, Long seed, Double endUs, boolean wholePackets) {
        public static final Options DEFAULTS = new Options(null, null, null, null, null, null, null, null, null, null);

        public Options(final String tor, final String agg, final String core, final Integer mtu, final Integer queuePackets, final Integer initialWindow,
            final Integer paths, final String routing, final Integer failedLinks, final Long seed) {
            this(tor, agg, core, mtu, queuePackets, initialWindow, paths, routing, failedLinks, seed, null, false);
        }
    }

    private final HtsimTopology topology;
    private final HtsimMatrix matrix;
    private final FatTree.Shape shape;
    private final String[] mechanisms;
    private final int mtu;
    private final int queuePackets;
    private final boolean wholePackets;
    private final int initialWindow;
    private final int paths;
    private final NetworkSettings.Routing routing;
    private final int failedLinks;
    private final long seed;
    /**
     * A sender sends again what it heard nothing of after this long (a header lost to a full header queue). htsim_ndp is
     * built without resending on timeout, and such a flow never completes there.
     */
    private final double rtoUs = 200;
    private final double maxDurationUs;
    private final Settings[] switchSettings;
    private final boolean[][] cut;

    private HtsimExperiment(final HtsimTopology topology, final HtsimMatrix matrix, final FatTree.Shape shape, final String[] mechanisms,
        final int mtu, final int queuePackets, final int initialWindow, final int paths, final NetworkSettings.Routing routing,
        final int failedLinks, final long seed, final Double endUs, final boolean wholePackets) {
        this.topology = topology;
        this.matrix = matrix;
        this.shape = shape;
        this.mechanisms = mechanisms;
        this.mtu = mtu;
        this.queuePackets = queuePackets;
        this.wholePackets = wholePackets;
        this.initialWindow = initialWindow;
        this.paths = paths;
        this.routing = routing;
        this.failedLinks = failedLinks;
        this.seed = seed;
        double lastStart = 0;
        for (final HtsimMatrix.Connection c : matrix.connections()) {
            lastStart = c.triggered() ? lastStart : Math.max(lastStart, c.startUs());
        }
        this.maxDurationUs = endUs != null ? endUs : lastStart + 1_000_000;
        this.cut = cutLinks(shape, matrix);
        this.switchSettings = settingsPerSwitch();
    }

    /**
     * The experiment of {@code matrix} on {@code topology} (null: htsim's default fat tree for the matrix's nodes), with
     * {@code options}; any impossible value is a {@link ConfigException} naming it.
     */
    public static HtsimExperiment of(final HtsimTopology topology, final HtsimMatrix matrix, final Options options) {
        final HtsimTopology tree = topology != null ? topology : HtsimTopology.defaultFor(matrix.nodes(), 100, 1000, matrix.source());
        if (matrix.nodes() != tree.nodes()) {
            throw new ConfigException(matrix.source() + ": Nodes " + matrix.nodes() + " differs from the topology's Nodes " + tree.nodes()
                + " (" + tree.source() + ")");
        }
        final FatTree.Shape shape = HtsimShape.of(tree, (tier, key) -> 0);
        for (int t = 0; t < tree.tiers(); t++) {
            final HtsimTopology.Tier tier = tree.tier()[t];
            if (tier.linkLatencyNs() != tree.tor().linkLatencyNs()) {
                throw new ConfigException(tree.source() + ": Downlink_Latency_ns of tier " + t + " (" + tier.linkLatencyNs() + ") differs from tier 0's ("
                    + tree.tor().linkLatencyNs() + "); every link has one delay here");
            }
            if (tier.switchLatencyNs() != 0) {
                throw new ConfigException(tree.source() + ": Switch_Latency_ns of tier " + t + " is " + tier.switchLatencyNs()
                    + "; only 0 is modelled (a switch forwards a packet once it has received it)");
            }
        }
        final String[] mechanisms = {
            options.torMechanism() != null ? options.torMechanism() : "tofino",
            options.aggMechanism() != null ? options.aggMechanism() : "ideal",
            options.coreMechanism() != null ? options.coreMechanism() : "ideal"};
        final int mtu = options.mtu() != null ? options.mtu() : 4096;
        SettingsValidation.within("--mtu", mtu, 64, MAX_MTU);
        final int queue = options.queuePackets() != null ? options.queuePackets() : 15;
        SettingsValidation.within("--queue-packets", queue, 1, 65_535);
        final int window = options.initialWindow() != null ? options.initialWindow() : 15;
        SettingsValidation.within("--initial-window", window, 1, 65_535);
        final int paths = options.paths() != null ? options.paths() : 0;
        SettingsValidation.within("--paths", paths, 0, 65_535);
        final NetworkSettings.Routing routing = Settings.choice("--routing", options.routing() != null ? options.routing() : "spray",
            NetworkSettings.Routing.values());
        final int failed = options.failedLinks() != null ? options.failedLinks() : 0;
        SettingsValidation.within("--fail", failed, 0, 1 << 20);
        for (final HtsimMatrix.Connection c : matrix.connections()) {
            final long packets = (c.sizeBytes() + mtu - 1) / mtu;
            if (packets > 65_535) {
                throw new ConfigException(matrix.source() + ": flow " + c.src() + "->" + c.dst() + " of " + c.sizeBytes() + " bytes makes " + packets
                    + " packets of " + mtu + " bytes; at most 65535 per flow (raise --mtu)");
            }
        }
        for (final HtsimMatrix.Failure f : matrix.failures()) {
            if (tree.tiers() != 3 || f.aggSwitch() >= shape.aggs() || f.link() >= shape.upLinksPerAgg()) {
                throw new ConfigException(matrix.source() + ": failure switch_id " + f.aggSwitch() + " link_id " + f.link()
                    + " names no aggregation uplink of the tree (" + shape.aggs() + " aggregation switches, " + shape.upLinksPerAgg() + " uplinks each"
                    + (tree.tiers() == 3 ? "" : "; a two-tier tree has none") + ")");
            }
        }
        if (options.endUs() != null && !(options.endUs() > 0 && options.endUs() <= 8_000_000)) {
            throw new ConfigException("--end-us must be above 0 and at most 8000000 µs (eight seconds of network time), got " + options.endUs());
        }
        return new HtsimExperiment(tree, matrix, shape, mechanisms, mtu, queue, window, paths, routing, failed,
            options.seed() != null ? options.seed() : 1, options.endUs(), options.wholePackets());
    }

    private static boolean[][] cutLinks(final FatTree.Shape shape, final HtsimMatrix matrix) {
        final boolean[][] cut = new boolean[shape.aggs()][shape.upLinksPerAgg() * shape.coreBundle()];
        for (final HtsimMatrix.Failure f : matrix.failures()) {
            // htsim cuts the first link of a bundle.
            cut[f.aggSwitch()][f.link() * shape.coreBundle()] = true;
        }
        return cut;
    }

    /** Every switch's settings: one object per distinct tier and set of port rates. */
    private Settings[] settingsPerSwitch() {
        final Settings[] each = new Settings[shape.switches()];
        final Map<String, Settings> distinct = new HashMap<>();
        for (int sw = 0; sw < each.length; sw++) {
            final int tier = shape.tier(sw);
            final double[] rates = rates(shape, sw, failedLinks);
            each[sw] = distinct.computeIfAbsent(tier + java.util.Arrays.toString(rates), key -> tierSettings(tier, rates));
        }
        return each;
    }

    /** The rate of each port of switch {@code sw}, Gb/s: its tier's, or a fraction of it on a link {@code -failed} slows. */
    private double[] rates(final FatTree.Shape layout, final int sw, final int failedLinks) {
        final HtsimTopology.Tier[] tier = topology.tier();
        final int ports = layout.ports(sw);
        final double[] rates = new double[ports];
        final FatTree.Shape s = shape;
        switch (layout.tier(sw)) {
            case 0 -> {
                for (int port = 0; port < ports; port++) {
                    final boolean host = port < s.hostsPerTor();
                    final int agg = (port - s.hostsPerTor()) / s.torBundle();
                    rates[port] = host ? tier[0].speedGbps() : tier[1].speedGbps() * (s.tiers() == 2 && agg < failedLinks ? FAILED_LINK_RATE : 1);
                }
            }
            case 1 -> {
                final int agg = sw - s.tors();
                final int down = s.torsPerPod() * s.torBundle();
                for (int port = 0; port < ports; port++) {
                    rates[port] = port < down ? tier[1].speedGbps() * (s.tiers() == 2 && agg < failedLinks ? FAILED_LINK_RATE : 1) : tier[2].speedGbps();
                }
            }
            default -> {
                final int core = sw - s.tors() - s.aggs();
                for (int port = 0; port < ports; port++) {
                    final int pod = port / s.coreBundle();
                    final int agg = pod * s.aggPerPod() + core % s.aggPerPod();
                    final int link = core / s.aggPerPod();
                    // htsim slows the core's downlinks to the aggregation switches where link + agg × aggPerPod < -failed.
                    rates[port] = tier[2].speedGbps() * ((long) link + (long) agg * s.aggPerPod() < failedLinks ? FAILED_LINK_RATE : 1);
                }
            }
        }
        return rates;
    }

    private static final String[] TIER_WORDS = {"rack switches", "aggregation switches", "core switches"};

    private Settings tierSettings(final int tier, final double[] rates) {
        final int ports = rates.length;
        final double rate = rates[0];
        final List<Settings.Port> own = new ArrayList<>();
        boolean uniform = true;
        for (final double r : rates) {
            uniform &= r == rate;
        }
        if (!uniform) {
            for (final double r : rates) {
                own.add(Settings.Port.DEFAULTS.withRateGbps(r == rate ? null : r));
            }
        }
        final HtsimTopology.Tier t = topology.tier()[tier];
        long queueBytes = (long) queuePackets * (wholePackets ? frameBytes() : mtu);
        if (t.queueDownBytes() > 0) {
            queueBytes = t.queueDownBytes();
        }
        if (t.queueUpBytes() > 0) {
            queueBytes = Math.min(queueBytes, t.queueUpBytes());
        }
        // htsim's queues hold bytes: as many whole data packets as fit, and twice that many bytes of headers. Its data
        // queue counts the packet being sent, which here has left the queue: one packet fewer waits.
        final int dataQueue = (int) Math.max(1, Math.min(65_535, queueBytes / frameBytes() - 1));
        final int headerQueue = (int) Math.max(1, Math.min(65_535, 2 * queueBytes / HEADER_BYTES));
        final int pipelines = Math.min(4, ports);
        int longest = 1;
        for (final HtsimMatrix.Connection c : matrix.connections()) {
            longest = (int) Math.max(longest, packets(c));
        }
        try {
            return new Settings(Mechanism.parse(mechanisms[tier]), Settings.Clock.VIRTUAL,
                new Settings.Fabric(pipelines, (ports + pipelines - 1) / pipelines, rate, dataQueue, headerQueue, Settings.Fabric.DEFAULTS.headersPerData()),
                Settings.Qos.DEFAULTS, Settings.Recirculation.DEFAULTS, Settings.Trim.DEFAULTS, Settings.Control.DEFAULTS,
                Settings.Workload.DEFAULTS.withPackets(longest).withPacketBytes(frameBytes()).withSeed(seed),
                Settings.Transport.DEFAULTS.withKind(Settings.TransportKind.NDP).withHosts(Settings.HostLayout.SHARED)
                    .withPropagationNs(topology.tor().linkLatencyNs()).withInitialWindowPackets(initialWindow)
                    .withRtoUs(rtoUs).withMaxDurationUs(maxDurationUs).withBackgroundUs(Math.min(Settings.Transport.DEFAULTS.backgroundUs(), maxDurationUs)),
                Settings.RealTime.DEFAULTS, own, Settings.Forwarding.DEFAULTS, Settings.Metrics.DEFAULTS).validate();
        } catch (final ConfigException e) {
            throw new ConfigException(TIER_WORDS[tier] + ": " + e.getMessage());
        }
    }

    /** A data packet on the wire: the MTU's payload and htsim's 64 bytes of headers. */
    @JsonIgnore
    public int frameBytes() {
        return mtu + HEADER_BYTES;
    }

    /** A flow's packets: its bytes in MTU-sized payloads, the last one whole as htsim sends it. */
    long packets(final HtsimMatrix.Connection c) {
        return Math.max(1, (c.sizeBytes() + mtu - 1) / mtu);
    }

    public FatTree.Shape shape() {
        return shape;
    }

    /** The fraction of its rate that {@code -failed} leaves port {@code port} of switch {@code sw}: 1, or {@link #FAILED_LINK_RATE}. */
    public double rateLeft(final int sw, final int port) {
        return rates(shape, sw, failedLinks)[port] / rates(shape, sw, 0)[port];
    }

    /** The hosts' link rate, Gb/s. */
    public double hostRateGbps() {
        return topology.tor().speedGbps();
    }

    /** Every link's one-way delay, ns. */
    public double linkLatencyNs() {
        return topology.tor().linkLatencyNs();
    }

    public boolean[][] cut() {
        return cut;
    }

    public Settings settings(final int sw) {
        return switchSettings[sw];
    }

    HtsimMatrix matrix() {
        return matrix;
    }

    long startPicos(final HtsimMatrix.Connection c) {
        return c.triggered() ? -1 : Picos.fromMicros(c.startUs());
    }

    public String getTopologyFile() {
        return topology.source();
    }

    public String getMatrixFile() {
        return matrix.source();
    }

    public int getNodes() {
        return topology.nodes();
    }

    public int getTiers() {
        return topology.tiers();
    }

    public String getTorMechanism() {
        return switchSettings[0].mechanism().label();
    }

    public String getAggMechanism() {
        return switchSettings[shape.tors()].mechanism().label();
    }

    public String getCoreMechanism() {
        return shape.cores() == 0 ? null : switchSettings[shape.tors() + shape.aggs()].mechanism().label();
    }

    public int getMtu() {
        return mtu;
    }

    public int getQueuePackets() {
        return queuePackets;
    }

    public int getInitialWindowPackets() {
        return initialWindow;
    }

    public int getPaths() { // 0: every path
        return paths;
    }

    public String getRouting() {
        return routing.label();
    }

    @JsonIgnore
    public NetworkSettings.Routing routing() {
        return routing;
    }

    public int getFailedLinks() {
        return failedLinks;
    }

    public long getSeed() {
        return seed;
    }

    public double getRtoUs() {
        return rtoUs;
    }

    public double getMaxDurationUs() {
        return maxDurationUs;
    }

    /** The topology in words, for the report's first line. */
    @JsonIgnore
    public String describe() {
        final FatTree.Shape s = shape;
        final StringBuilder text = new StringBuilder();
        text.append(s.tiers()).append("-tier fat tree: ").append(s.nodes()).append(" hosts, ").append(s.tors()).append(" racks of ")
            .append(s.hostsPerTor());
        if (s.tiers() == 3) {
            text.append(", ").append(s.pods()).append(" pods, ").append(s.aggPerPod()).append(s.aggPerPod() == 1 ? " aggregation switch" : " aggregation switches")
                .append(" per pod, ").append(s.cores()).append(s.cores() == 1 ? " core switch" : " core switches");
        } else {
            text.append(", ").append(s.aggs()).append(" spines");
        }
        text.append(", ").append(plain(topology.tor().speedGbps())).append(" Gb/s hosts");
        if (failedLinks > 0) {
            text.append(", ").append(failedLinks).append(" links at ").append((int) (FAILED_LINK_RATE * 100)).append(" %");
        }
        if (!matrix.failures().isEmpty()) {
            text.append(", ").append(matrix.failures().size()).append(" uplinks cut");
        }
        return text.toString();
    }

    private static String plain(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
