package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.config.SettingsChoices.ForwardingMode;
import io.trimswitch.config.SettingsChoices.Idle;
import io.trimswitch.config.SettingsChoices.Loop;
import io.trimswitch.config.SettingsChoices.Placement;

import java.util.List;

import static io.trimswitch.config.SettingsValidation.atLeast;
import static io.trimswitch.config.SettingsValidation.atMost;
import static io.trimswitch.config.SettingsValidation.within;

/**
 * The blocks of {@link Settings} that only a real-time run reads: its threads, and the live switch's ports, forwarding
 * and metrics. Reached as {@code Settings.RealTime} and the like, since {@link Settings} implements this. The live
 * switch checks its ports, forwarding and metrics where it reads them ({@code live}'s {@code LiveSettings}).
 */
public interface RealTimeSettings {
    /**
     * How the real-time runtime runs: time dilation, threads, and how idle threads wait. The live switch's own settings
     * are echoed only when they differ from their defaults, so that the reports of runs that cannot use them stay as they were.
     */
    @JsonPropertyOrder({"dilation", "placement", "idle", "warmUp", "batchPackets", "rxRingPackets", "pipelineThreads", "udpGso", "portKind", "pollAfterTrafficUs"})
    @SettingsBlock
    public record RealTime(double dilation, Placement placement, Idle idle, boolean warmUp, int batchPackets, int rxRingPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.OneThread.class) int pipelineThreads,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.GsoOn.class) boolean udpGso,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.PacketKind.class) @JsonSetter(nulls = Nulls.SET) String portKind,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) Integer pollAfterTrafficUs) implements RealTimeBuilder.With {
        /** How an interface port reads and sends its frames unless its own {@code kind} says otherwise. */
        public static final String DEFAULT_PORT_KIND = "af_packet";
        /**
         * How long (µs) a {@code poll} thread keeps polling after the last frame it received, when set: a wake-up costs
         * latency, polling costs a core; 0 sleeps as soon as a turn finds nothing. Unset (null, the default): a shard
         * whose ports all time their frames by the kernel's receive stamp adapts, polling while turns find work and
         * briefly for the answer to a frame after a quiet spell; one with any other port polls
         * {@link #UNSTAMPED_POLL_AFTER_TRAFFIC_US}.
         */
        public static final Integer DEFAULT_POLL_AFTER_TRAFFIC_US = null;
        /**
         * The window unset means for a shard with a port whose frames carry no receive stamp (UDP/VXLAN): a late wake-up
         * would put every frame that waited at one instant, a burst the wire never had.
         */
        public static final int UNSTAMPED_POLL_AFTER_TRAFFIC_US = 10_000;
        public static final RealTime DEFAULTS = new RealTime(4000, Placement.SINGLE, Idle.BUSY_SPIN, true, 32, 4096, 1, true, DEFAULT_PORT_KIND,
            DEFAULT_POLL_AFTER_TRAFFIC_US);

        /**
         * How many pipeline shards, each on a thread of its own, run the switch (a scenario in real time and {@code run}
         * alike): one setting with two spellings, {@code placement} by name ({@code single} one, {@code split} two,
         * {@code per-pipeline} one per pipeline) or {@code pipelineThreads} by number; validation refuses the two
         * given with different counts.
         */
        public int shards(final int pipelines) {
            if (pipelineThreads != 1) {
                return Math.min(pipelineThreads, pipelines);
            }
            switch (placement) {
                case SPLIT:
                    return Math.min(2, pipelines);
                case PER_PIPELINE:
                    return pipelines;
                default:
                    return 1;
            }
        }

        /** Dilation, threads and their placement; and with clock real, the parts that run only in virtual time refused. */
        void validate(final Settings s) {
            if (!(dilation >= 1) || !(dilation <= 1e6)) {
                throw new ConfigException("realtime.dilation must be 1..1000000 (1 runs the switch at its own speed), got " + dilation);
            }
            atLeast("realtime.batchPackets", batchPackets, 1);
            atMost("realtime.batchPackets", batchPackets, 4096);
            atLeast("realtime.rxRingPackets", rxRingPackets, 1);
            atMost("realtime.rxRingPackets", rxRingPackets, 1 << 20);
            if (pollAfterTrafficUs != null) {
                within("realtime.pollAfterTrafficUs", pollAfterTrafficUs, 0, 1_000_000);
            }
            atLeast("realtime.pipelineThreads", pipelineThreads, 1);
            atMost("realtime.pipelineThreads", pipelineThreads, s.fabric().pipelines());
            final RealTime byName = withPipelineThreads(1);
            if (pipelineThreads != 1 && placement != Placement.SINGLE && byName.shards(s.fabric().pipelines()) != pipelineThreads) {
                throw new ConfigException("realtime.placement (" + placement.label() + ": " + byName.shards(s.fabric().pipelines())
                    + " shards) and realtime.pipelineThreads (" + pipelineThreads + ") are one setting and disagree: give one of them");
            }
            if (!s.realTime()) {
                return;
            }
            if (s.mechanism().virtualOnly() != null) {
                throw new ConfigException(s.mechanism().virtualOnly());
            }
            if (s.control().loop() == Loop.BACKLOG) {
                throw new ConfigException("control.loop backlog runs only with clock virtual");
            }
            if (!SettingsChoices.TransportKind.OPEN_LOOP.equals(s.transport().kind())) {
                throw new ConfigException("clock real runs open-loop senders; " + s.transport().kind().label().toUpperCase(java.util.Locale.ROOT)
                    + " end hosts run only with clock virtual (set transport.kind open-loop)");
            }
        }
    }

    /**
     * One switch port: a Linux interface ({@code interface}), or a UDP endpoint carrying VXLAN ({@code bind} and the rest).
     * A null remote: learned from the first datagram; a null remotePort: the bind port; a null rate: the fabric's.
     */
    @JsonPropertyOrder({"interface", "kind", "queues", "bind", "remote", "remotePort", "vni", "rateGbps"})
    @SettingsBlock
    public record Port(@JsonProperty("interface") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) String interfaceName,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) String kind,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) Integer queues,
        @JsonSetter(nulls = Nulls.SET) String bind, @JsonSetter(nulls = Nulls.SET) String remote, @JsonSetter(nulls = Nulls.SET) Integer remotePort,
        int vni, @JsonSetter(nulls = Nulls.SET) Double rateGbps) implements PortBuilder.With {
        public static final Port DEFAULTS = new Port(null, null, null, null, null, null, 42, null);

        /** A port on a Linux interface rather than a UDP endpoint. */
        public boolean onInterface() {
            return interfaceName != null;
        }
    }

    /** How {@code run} forwards: a learning bridge, IPv4 routes, or the model's table. */
    @JsonPropertyOrder({"mode", "agingSeconds", "macTableSize", "staticMacs", "routes"})
    @SettingsBlock
    public record Forwarding(
        ForwardingMode mode, double agingSeconds,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.DefaultMacTable.class) int macTableSize,
        List<StaticMac> staticMacs, List<Route> routes) implements ForwardingBuilder.With {
        /** A MAC table's size unless the settings say otherwise: addresses per pipeline thread. */
        public static final int DEFAULT_MAC_TABLE_SIZE = 8192;
        public static final Forwarding DEFAULTS = new Forwarding(ForwardingMode.L2, 300, DEFAULT_MAC_TABLE_SIZE, List.of(), List.of());

        public Forwarding {
            staticMacs = List.copyOf(staticMacs);
            routes = List.copyOf(routes);
        }
    }

    /** A MAC address that always lives on one port. */
    @JsonPropertyOrder({"mac", "port"})
    public record StaticMac(@JsonSetter(nulls = Nulls.SET) String mac, int port) {
        public static final StaticMac DEFAULTS = new StaticMac(null, 0);
    }

    /** Routed forwarding: a prefix (a.b.c.d/len) leaves by a port towards a next hop's MAC. */
    @JsonPropertyOrder({"prefix", "port", "nextHopMac"})
    public record Route(@JsonSetter(nulls = Nulls.SET) String prefix, int port, @JsonSetter(nulls = Nulls.SET) String nextHopMac) {
        public static final Route DEFAULTS = new Route(null, 0, null);
    }

    /**
     * Where a live switch's counters can be read: its HTTP endpoint (host:port, loopback unless set otherwise; null: no
     * endpoint) and its counters file (null: one per network namespace, left out of reports then, as before it existed);
     * controlGroup: a group whose members may use the control socket besides root (null: root only).
     */
    @SettingsBlock
    public record Metrics(@JsonSetter(nulls = Nulls.SET) String address,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) String countersFile,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) String controlGroup) implements MetricsBuilder.With {
        public static final Metrics DEFAULTS = new Metrics("127.0.0.1:9464", null, null);
    }
}
