package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.trimswitch.dataplane.packet.TrimOptOut;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.pipelines.TrTcmMeter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings of one run, parsed once from their {@link SwitchSettings} form into typed, immutable values:
 * every choice an enum, every list unmodifiable. Runtimes are built from these and cannot change them. A
 * report echoes them with the same keys and spellings as the YAML file.
 */
@JsonPropertyOrder({"mechanism", "clock", "fabric", "qos", "recirculation", "trim", "control", "workload", "transport", "realtime", "ports", "forwarding", "metrics"})
public record Settings(
    Mechanism mechanism,
    Clock clock,
    Fabric fabric,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SwitchSettings.NoQueues.class) Qos qos,
    Recirculation recirculation,
    Trim trim,
    Control control,
    Workload workload,
    Transport transport,
    RealTime realtime,
    List<Port> ports,
    Forwarding forwarding,
    Metrics metrics) {

    /** Which clock drives the components. */
    public enum Clock implements Choice {
        VIRTUAL, REAL
    }

    /** Ingress meters: three (one per trim state) or two (optimistic and pessimistic, the production-router profile). */
    public enum MeterProfile implements Choice {
        THREE, TWO
    }

    /** Which pipelines a NOTIFY reaches: all of them, or only the one whose packet was deflected. */
    public enum NotifyScope implements Choice {
        ALL, ORIGIN
    }

    /** Which deflected packets raise a congestion signal: every one, or only those meeting a DoD backlog. */
    public enum SignalTrigger implements Choice {
        EVERY, BACKLOG
    }

    /** The trim control loop of {@code tofino}: the paper's, or the one that reads how late each NOTIFY is. */
    public enum Loop implements Choice {
        PAPER, BACKLOG
    }

    /** Open-loop senders that blast and stop, or NDP hosts that retransmit until every flow completes. */
    public enum TransportKind implements Choice {
        OPEN_LOOP, NDP
    }

    /** Whether a port's sending and receiving hosts are two machines or one. */
    public enum HostLayout implements Choice {
        SEPARATE, SHARED
    }

    /** How the real-time runtime puts its agents on threads. */
    public enum Placement implements Choice {
        SPLIT, PER_ROLE, PER_AGENT, SINGLE
    }

    /** What a thread does after a duty cycle with nothing to do. */
    public enum Idle implements Choice {
        BUSY_SPIN, YIELD, BACKOFF, SLEEP,
        /** The live switch: sleep in poll (epoll_wait) until a port has a frame; an idle core for some latency. */
        POLL
    }

    /** What happens to a packet that does not fit its queue (SAI's packet_discard_action). */
    public enum Discard implements Choice {
        TRIM, DROP
    }

    /** How the scheduler serves a queue: before every dwrr queue, or by deficit weighted round robin. */
    public enum Scheduling implements Choice {
        STRICT, DWRR
    }

    /** How {@code run} forwards: a learning bridge, IPv4 routes, or 10.0.p.0/24 to port p. */
    public enum ForwardingMode implements Choice {
        L2, ROUTED, SUBNET
    }

    @JsonPropertyOrder({"pipelines", "portsPerPipeline", "portRateGbps", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    public record Fabric(int pipelines, int portsPerPipeline, double portRateGbps, int dataQueuePackets, int headerQueuePackets,
        int headersPerData) {
    }

    /** Maps with every key listed; no queues: the reproduced switch's one data queue. */
    @JsonPropertyOrder({"queues", "dscpToTc", "tcToQueue", "trimmedQueue"})
    public record Qos(List<Queue> queues, Map<Integer, Integer> dscpToTc, Map<Integer, Integer> tcToQueue,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer trimmedQueue) {
        public boolean configured() {
            return !queues.isEmpty();
        }
    }

    @JsonPropertyOrder({"packets", "discard", "scheduling", "weight"})
    public record Queue(int packets, Discard discard, Scheduling scheduling, int weight) {
    }

    @JsonPropertyOrder({"rateGbps", "latencyNs", "dodQueuePackets", "mirrorQueuePackets"})
    public record Recirculation(double rateGbps, double latencyNs, int dodQueuePackets, int mirrorQueuePackets) {
    }

    /** The Ultra Ethernet marks and the opt-out rules are written out only when given. */
    @JsonPropertyOrder({"sizeBytes", "dscp", "trimmableDscp", "ndpUdpPort", "returnToSender", "fabricDscp", "fabricPorts", "noTrimDscp", "disable"})
    public record Trim(int sizeBytes, int dscp, List<Integer> trimmableDscp, int ndpUdpPort, boolean returnToSender,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer fabricDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> fabricPorts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> noTrimDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<OptOut> disable) {
    }

    /** A rule of the per-flow opt-out; a null field matches anything. */
    @JsonPropertyOrder({"source", "destination", "protocol", "destinationPorts", "dscp"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OptOut(String source, String destination, String protocol, String destinationPorts, Integer dscp) {
    }

    /**
     * Null rates and burst: derived from the port (see {@link #halftimisticRateBps}, {@link #meterBurstBytes}). The NOTIFY
     * scope is {@code notify} in YAML; a record cannot name a component after {@link Object#notify()}.
     */
    @JsonPropertyOrder({"meters", "t0Us", "t1Us", "halftimistic", "halftimisticRateGbps", "pessimisticRateGbps",
        "meterBurstBytes", "notify", "signal", "signalBacklog", "depthThresholdPackets", "staleStages", "loop"})
    public record Control(MeterProfile meters, double t0Us, double t1Us, boolean halftimistic, Double halftimisticRateGbps,
        Double pessimisticRateGbps, Integer meterBurstBytes, @JsonProperty("notify") NotifyScope notifyScope, SignalTrigger signal, int signalBacklog,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer depthThresholdPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SwitchSettings.FourStages.class) int staleStages,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SwitchSettings.PaperLoop.class) Loop loop) {
    }

    /** {@code pattern} is parsed against the fabric's ports by {@link Pattern#parse}. */
    @JsonPropertyOrder({"pattern", "packets", "packetBytes", "durationUs", "startJitter", "seed"})
    public record Workload(String pattern, int packets, int packetBytes, double durationUs, boolean startJitter, long seed) {
    }

    @JsonPropertyOrder({"kind", "initialWindowPackets", "hosts", "propagationNs", "rtoUs", "maxDurationUs", "flowSizes",
        "backgroundLoad", "backgroundUs"})
    public record Transport(TransportKind kind, int initialWindowPackets, HostLayout hosts, double propagationNs, double rtoUs,
        double maxDurationUs, String flowSizes, double backgroundLoad, double backgroundUs) {
    }

    /** The live switch's own settings are echoed only when they differ from their defaults. */
    @JsonPropertyOrder({"dilation", "placement", "idle", "warmUp", "batchPackets", "rxRingPackets", "pipelineThreads", "udpGso"})
    public record RealTime(double dilation, Placement placement, Idle idle, boolean warmUp, int batchPackets, int rxRingPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SwitchSettings.OneThread.class) int pipelineThreads,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SwitchSettings.GsoOn.class) boolean udpGso) {
    }

    /** A Linux interface, or a UDP endpoint: null remote: learned; null remotePort: the bind port. Null rate: the fabric's. */
    @JsonPropertyOrder({"interface", "bind", "remote", "remotePort", "vni", "rateGbps"})
    public record Port(@JsonProperty("interface") @JsonInclude(JsonInclude.Include.NON_NULL) String interfaceName, String bind, String remote, Integer remotePort, int vni, Double rateGbps) {
        /** A port on a Linux interface rather than a UDP endpoint. */
        public boolean onInterface() {
            return interfaceName != null;
        }
    }

    @JsonPropertyOrder({"mode", "agingSeconds", "staticMacs", "routes"})
    public record Forwarding(ForwardingMode mode, double agingSeconds, List<StaticMac> staticMacs, List<Route> routes) {
    }

    @JsonPropertyOrder({"mac", "port"})
    public record StaticMac(String mac, int port) {
    }

    @JsonPropertyOrder({"prefix", "port", "nextHopMac"})
    public record Route(String prefix, int port, String nextHopMac) {
    }

    /** Null address: no endpoint. */
    /** @param countersFile null: the default, one per network namespace; left out of reports then, as before it existed */
    public record Metrics(String address, @JsonInclude(JsonInclude.Include.NON_NULL) String countersFile,
        @JsonInclude(JsonInclude.Include.NON_NULL) String controlGroup) {
    }

    /** Parses the editable form: each choice to its enum, each list to an unmodifiable copy. Checks no ranges. */
    static Settings from(final SwitchSettings s) {
        final SwitchSettings.Fabric f = s.fabric;
        final SwitchSettings.Recirculation r = s.recirculation;
        final SwitchSettings.Trim t = s.trim;
        final SwitchSettings.Control c = s.control;
        final SwitchSettings.Workload w = s.workload;
        final SwitchSettings.Transport x = s.transport;
        final SwitchSettings.RealTime rt = s.realtime;
        if (t.trimmableDscp == null) {
            throw new ConfigException("trim.trimmableDscp must be a list of DSCP values (may be empty)");
        }
        for (final Integer dscp : t.trimmableDscp) {
            if (dscp == null) {
                throw new ConfigException("trim.trimmableDscp values must be 0..63, got null");
            }
        }
        return new Settings(
            Mechanism.parse(s.mechanism),
            choice("clock", s.clock, Clock.values()),
            new Fabric(f.pipelines, f.portsPerPipeline, f.portRateGbps, f.dataQueuePackets, f.headerQueuePackets, f.headersPerData),
            qos(s.qos),
            new Recirculation(r.rateGbps, r.latencyNs, r.dodQueuePackets, r.mirrorQueuePackets),
            new Trim(t.sizeBytes, t.dscp, List.copyOf(t.trimmableDscp), t.ndpUdpPort, t.returnToSender, t.fabricDscp,
                numbers("trim.fabricPorts", t.fabricPorts), numbers("trim.noTrimDscp", t.noTrimDscp), optOuts(t.disable)),
            new Control(choice("control.meters", c.meters, MeterProfile.values()), c.t0Us, c.t1Us, c.halftimistic, c.halftimisticRateGbps,
                c.pessimisticRateGbps, c.meterBurstBytes, choice("control.notify", c.notify, NotifyScope.values()),
                choice("control.signal", c.signal, SignalTrigger.values()), c.signalBacklog, c.depthThresholdPackets, c.staleStages,
                choice("control.loop", c.loop, Loop.values())),
            new Workload(w.pattern, w.packets, w.packetBytes, w.durationUs, w.startJitter, w.seed),
            new Transport(choice("transport.kind", x.kind, TransportKind.values()), x.initialWindowPackets,
                choice("transport.hosts", x.hosts, HostLayout.values()), x.propagationNs, x.rtoUs, x.maxDurationUs, x.flowSizes,
                x.backgroundLoad, x.backgroundUs),
            new RealTime(rt.dilation, choice("realtime.placement", rt.placement, Placement.values()),
                choice("realtime.idle", "block".equals(rt.idle) ? Idle.POLL.label() : rt.idle, Idle.values()), rt.warmUp, rt.batchPackets, rt.rxRingPackets, rt.pipelineThreads, rt.udpGso),
            ports(s.ports),
            forwarding(s.forwarding),
            new Metrics(s.metrics.address, s.metrics.countersFile, s.metrics.controlGroup));
    }

    private static List<Integer> numbers(final String name, final List<Integer> values) {
        if (values == null || values.contains(null)) {
            throw new ConfigException(name + " must be a list of numbers (may be empty)");
        }
        return List.copyOf(values);
    }

    private static List<OptOut> optOuts(final List<SwitchSettings.OptOut> rules) {
        final List<OptOut> typed = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            final SwitchSettings.OptOut rule = rules.get(i);
            if (rule == null) {
                throw new ConfigException("trim.disable[" + i + "] is empty: give at least one of source, destination, protocol, destinationPorts, dscp");
            }
            typed.add(new OptOut(rule.source, rule.destination, rule.protocol, rule.destinationPorts, rule.dscp));
        }
        return List.copyOf(typed);
    }

    private static Qos qos(final SwitchSettings.Qos qos) {
        final List<Queue> queues = new ArrayList<>(qos.queues.size());
        for (int i = 0; i < qos.queues.size(); i++) {
            final SwitchSettings.Queue q = qos.queues.get(i);
            if (q == null) {
                throw new ConfigException("qos.queues[" + i + "] is empty: a queue needs at least packets");
            }
            final String name = "qos.queues[" + i + "]";
            queues.add(new Queue(q.packets, choice(name + ".discard", q.discard, Discard.values()),
                choice(name + ".scheduling", q.scheduling, Scheduling.values()), q.weight));
        }
        return new Qos(List.copyOf(queues), Collections.unmodifiableMap(new TreeMap<>(qos.dscpToTc)),
            Collections.unmodifiableMap(new TreeMap<>(qos.tcToQueue)), qos.trimmedQueue);
    }

    private static List<Port> ports(final List<SwitchSettings.Port> entries) {
        final List<Port> ports = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            final SwitchSettings.Port p = entries.get(i);
            if (p == null) {
                throw new ConfigException("ports[" + i + "] is empty: a port needs interface: NAME or bind: host:port");
            }
            ports.add(new Port(p.interfaceName, p.bind, p.remote, p.remotePort, p.vni, p.rateGbps));
        }
        return List.copyOf(ports);
    }

    private static Forwarding forwarding(final SwitchSettings.Forwarding f) {
        final List<StaticMac> macs = new ArrayList<>(f.staticMacs.size());
        for (int i = 0; i < f.staticMacs.size(); i++) {
            final SwitchSettings.StaticMac m = f.staticMacs.get(i);
            if (m == null) {
                throw new ConfigException("forwarding.staticMacs[" + i + "] is empty: it needs mac and port");
            }
            macs.add(new StaticMac(m.mac, m.port));
        }
        final List<Route> routes = new ArrayList<>(f.routes.size());
        for (int i = 0; i < f.routes.size(); i++) {
            final SwitchSettings.Route route = f.routes.get(i);
            if (route == null) {
                throw new ConfigException("forwarding.routes[" + i + "] is empty: it needs prefix, port and nextHopMac");
            }
            routes.add(new Route(route.prefix, route.port, route.nextHopMac));
        }
        return new Forwarding(choice("forwarding.mode", f.mode, ForwardingMode.values()), f.agingSeconds, List.copyOf(macs), List.copyOf(routes));
    }

    public static <E extends Enum<E> & Choice> E choice(final String name, final String text, final E[] values) {
        for (final E value : values) {
            if (value.label().equals(text)) {
                return value;
            }
        }
        final List<String> labels = new ArrayList<>();
        for (final E value : values) {
            labels.add(value.label());
        }
        throw new ConfigException(name + " must be one of " + String.join(", ", labels) + ", got '" + text + "'");
    }

    /** The same settings with open-loop senders: traffic from outside (a replay) brings hosts of its own. */
    public Settings withOpenLoop() {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload,
            new Transport(TransportKind.OPEN_LOOP, transport.initialWindowPackets, transport.hosts, transport.propagationNs, transport.rtoUs,
                transport.maxDurationUs, transport.flowSizes, transport.backgroundLoad, transport.backgroundUs),
            realtime, ports, forwarding, metrics);
    }

    public boolean realTime() {
        return clock == Clock.REAL;
    }

    public boolean ndp() {
        return transport.kind == TransportKind.NDP;
    }

    public boolean separateHosts() {
        return ndp() && transport.hosts == HostLayout.SEPARATE;
    }

    /** Egress ports of the traffic manager: one per port, and with separate NDP hosts one more per port for its sending host. */
    public int egressPorts() {
        return separateHosts() ? 2 * portCount() : portCount();
    }

    /** Recirculation (DoD) ports: one per pipeline, or with {@code tofino2} one per eight ports. */
    public int recirculationPorts() {
        return mechanism.readsQueueDepth() ? (portCount() + 7) / 8 : fabric.pipelines;
    }

    /**
     * tofino2's trim threshold on the queue depth ingress reads. By default the read queue's capacity less one packet per
     * stale stage, so that what the read misses still fits.
     */
    public int depthThresholdPackets() {
        return control.depthThresholdPackets == null
            ? Math.max(1, dataQueuePackets(depthReadQueue()) - control.staleStages) : control.depthThresholdPackets;
    }

    /** The data queue whose depth tofino2's ingress reads: the first that trims (the only one without traffic classes). */
    public int depthReadQueue() {
        for (int queue = 0; queue < dataQueueCount(); queue++) {
            if (!qos.configured() || qos.queues.get(queue).discard() == Discard.TRIM) {
                return queue;
            }
        }
        return 0;
    }

    /** The switch's ports: pipelines × ports per pipeline. */
    public int portCount() {
        return fabric.pipelines * fabric.portsPerPipeline;
    }

    public long portRateBps() {
        return Math.round(fabric.portRateGbps * 1e9);
    }

    /** Egress port {@code port}'s rate: its own limit when {@code run} sets one, else the fabric's. */
    public long portRateBps(final int port) {
        final int switchPort = port % portCount();
        final Double own = switchPort < ports.size() ? ports.get(switchPort).rateGbps : null;
        return own == null ? portRateBps() : Math.round(own * 1e9);
    }

    public long halftimisticRateBps(final int port) {
        return control.halftimisticRateGbps == null ? portRateBps(port) / 2 : Math.round(control.halftimisticRateGbps * 1e9);
    }

    public long pessimisticRateBps(final int port) {
        return control.pessimisticRateGbps == null ? portRateBps(port) / 4 : Math.round(control.pessimisticRateGbps * 1e9);
    }

    public long halftimisticRateBps() {
        return control.halftimisticRateGbps == null ? portRateBps() / 2 : Math.round(control.halftimisticRateGbps * 1e9);
    }

    public long pessimisticRateBps() {
        return control.pessimisticRateGbps == null ? portRateBps() / 4 : Math.round(control.pessimisticRateGbps * 1e9);
    }

    /** The DSCP the workload's data frames carry: the first trimmable one, or 0 when none is. */
    public int workloadDscp() {
        return trim.trimmableDscp.isEmpty() ? 0 : trim.trimmableDscp.get(0);
    }

    public int meterBurstBytes() {
        // The meter plays the egress buffer; a deep data queue is capped at the largest bucket a meter has.
        return control.meterBurstBytes == null
            ? (int) Math.min((long) fabric.dataQueuePackets * workload.packetBytes, TrTcmMeter.MAX_BURST_BYTES)
            : control.meterBurstBytes;
    }

    /**
     * The dataplane's view of the trim settings: with queues, a packet is trimmable when its queue trims; then the
     * Ultra Ethernet marks and the opt-out rules apply.
     */
    public TrimSettings trimSettings() {
        long noTrim = 0;
        for (final int dscp : trim.noTrimDscp) {
            noTrim |= 1L << dscp;
        }
        final long[] fabric = new long[(portCount() * 2 + 63) / 64];
        for (final int port : trim.fabricPorts) {
            fabric[port >> 6] |= 1L << port;
        }
        final TrimOptOut[] optOuts = new TrimOptOut[trim.disable.size()];
        for (int i = 0; i < optOuts.length; i++) {
            optOuts[i] = OptOutRules.parse("trim.disable[" + i + "]", trim.disable.get(i));
        }
        return classesAndTrimmability().with(trim.fabricDscp == null ? trim.dscp : trim.fabricDscp, fabric, noTrim, optOuts)
            .withTrimmedQueue(qos.trimmedQueue == null ? -1 : qos.trimmedQueue);
    }

    private TrimSettings classesAndTrimmability() {
        if (!qos.configured()) {
            long mask = 0;
            for (final int dscp : trim.trimmableDscp) {
                mask |= 1L << dscp;
            }
            return new TrimSettings(trim.sizeBytes, trim.dscp, mask, trim.ndpUdpPort);
        }
        final byte[] queueOfDscp = new byte[64];
        int trimmingQueues = 0;
        for (int queue = 0; queue < qos.queues.size(); queue++) {
            if (qos.queues.get(queue).discard() == Discard.TRIM) {
                trimmingQueues |= 1 << queue;
            }
        }
        long mask = 0;
        for (int dscp = 0; dscp < 64; dscp++) {
            queueOfDscp[dscp] = (byte) queueOf(dscp);
            // A header already trimmed elsewhere travels as a header, not as a packet to trim again.
            if ((trimmingQueues >>> queueOfDscp[dscp] & 1) != 0 && dscp != trim.dscp && !Integer.valueOf(dscp).equals(trim.fabricDscp)) {
                mask |= 1L << dscp;
            }
        }
        return new TrimSettings(trim.sizeBytes, trim.dscp, mask, trim.ndpUdpPort, queueOfDscp, trimmingQueues);
    }

    /** The data queue of a DSCP's packets, through its traffic class; 0 without queues. */
    public int queueOf(final int dscp) {
        final int tc = qos.dscpToTc.getOrDefault(dscp, 0);
        return qos.tcToQueue.getOrDefault(tc, tc);
    }

    /** A port's data queues: one without {@code qos.queues}. */
    public int dataQueueCount() {
        return qos.configured() ? qos.queues.size() : 1;
    }

    public int dataQueuePackets(final int queue) {
        return qos.configured() ? qos.queues.get(queue).packets() : fabric.dataQueuePackets;
    }

    /** The packets all of a port's data queues hold together. */
    public long dataQueuePacketsPerPort() {
        long total = 0;
        for (int queue = 0; queue < dataQueueCount(); queue++) {
            total += dataQueuePackets(queue);
        }
        return total;
    }

    /** The workload's pattern on this fabric's ports. */
    public Pattern pattern() {
        return Pattern.parse(workload.pattern, fabric.pipelines, fabric.portsPerPipeline);
    }
}
