package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.dataplane.packet.TrimOptOut;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.pipelines.TrTcmMeter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Everything a run of the switch is made of, as the YAML file spells it: typed, immutable values, every choice an enum,
 * every list unmodifiable. Each record's {@code DEFAULTS} is the reproduced switch's (64 × 100 Gb/s, 16-packet data
 * queues), and a key a file leaves out takes its value from there ({@link SettingsFiles}); units are in the names. A
 * change is a new record ({@code withX}); {@link #validate()} turns any impossible value into a {@link ConfigException}.
 * A report echoes the settings with the same keys and spellings as the file.
 */
@JsonPropertyOrder({"mechanism", "clock", "fabric", "qos", "recirculation", "trim", "control", "workload", "transport", "realtime", "ports", "forwarding", "metrics"})
public record Settings(
    Mechanism mechanism,
    Clock clock,
    Fabric fabric,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NoQueues.class) Qos qos,
    Recirculation recirculation,
    Trim trim,
    Control control,
    Workload workload,
    Transport transport,
    RealTime realtime,
    List<Port> ports,
    Forwarding forwarding,
    Metrics metrics) {

    public static final Settings DEFAULTS = new Settings(Mechanism.TOFINO, Clock.VIRTUAL, Fabric.DEFAULTS, Qos.DEFAULTS, Recirculation.DEFAULTS,
        Trim.DEFAULTS, Control.DEFAULTS, Workload.DEFAULTS, Transport.DEFAULTS, RealTime.DEFAULTS, List.of(), Forwarding.DEFAULTS, Metrics.DEFAULTS);

    public Settings {
        ports = List.copyOf(ports);
    }

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

    /**
     * Open-loop senders that blast and stop, NDP hosts that retransmit until every flow completes, or Ultra Ethernet hosts
     * (NSCC, SACKs and NACKs, in virtual time) that do the same.
     */
    public enum TransportKind implements Choice {
        OPEN_LOOP, NDP, UET
    }

    /** Whether a port's sending and receiving hosts are two machines or one. */
    public enum HostLayout implements Choice {
        SEPARATE, SHARED
    }

    /** How the real-time runtime puts its agents on threads. */
    /** How many pipeline shards, each on a thread of its own, run a real-time scenario: one, two, or one per pipeline. */
    public enum Placement implements Choice {
        SPLIT, PER_PIPELINE, SINGLE
    }

    /** What a thread does after a duty cycle with nothing to do. */
    public enum Idle implements Choice {
        BUSY_SPIN, YIELD, BACKOFF, SLEEP,
        /** The live switch: sleep in poll (epoll_wait) until a port has a frame; an idle core for some latency. */
        POLL;

        /** {@code block} is what poll was called before. */
        @Override
        public boolean named(final String text) {
            return Choice.super.named(text) || this == POLL && "block".equals(text);
        }
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

    /** The switch: pipelines, ports, the traffic manager's queues and scheduler; headersPerData 0 = strict priority for headers. */
    @JsonPropertyOrder({"pipelines", "portsPerPipeline", "portRateGbps", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    public record Fabric(int pipelines, int portsPerPipeline, double portRateGbps, int dataQueuePackets, int headerQueuePackets,
        int headersPerData) {
        public static final Fabric DEFAULTS = new Fabric(4, 16, 100, 16, 1024, 10);

        public Fabric withPipelines(final int value) {
            return new Fabric(value, portsPerPipeline, portRateGbps, dataQueuePackets, headerQueuePackets, headersPerData);
        }

        public Fabric withPortsPerPipeline(final int value) {
            return new Fabric(pipelines, value, portRateGbps, dataQueuePackets, headerQueuePackets, headersPerData);
        }

        public Fabric withPortRateGbps(final double value) {
            return new Fabric(pipelines, portsPerPipeline, value, dataQueuePackets, headerQueuePackets, headersPerData);
        }

        public Fabric withDataQueuePackets(final int value) {
            return new Fabric(pipelines, portsPerPipeline, portRateGbps, value, headerQueuePackets, headersPerData);
        }

        public Fabric withHeaderQueuePackets(final int value) {
            return new Fabric(pipelines, portsPerPipeline, portRateGbps, dataQueuePackets, value, headersPerData);
        }
    }

    /**
     * Traffic classes and queues as SONiC configures them: DSCP → traffic class (DSCP_TO_TC_MAP), traffic class → queue
     * (TC_TO_QUEUE_MAP), and per queue its depth, discard action and scheduling. No queues: the reproduced switch, one
     * data queue of {@code fabric.dataQueuePackets} whose trimmable packets are those of {@code trim.trimmableDscp}.
     * The maps are sorted by key; a null trimmedQueue: trimmed packets wait in the header queue, ahead of data.
     */
    @JsonPropertyOrder({"queues", "dscpToTc", "tcToQueue", "trimmedQueue"})
    public record Qos(List<Queue> queues, Map<Integer, Integer> dscpToTc, Map<Integer, Integer> tcToQueue,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer trimmedQueue) {
        public static final Qos DEFAULTS = new Qos(List.of(), Map.of(), Map.of(), null);

        public Qos {
            queues = List.copyOf(queues);
            dscpToTc = sorted(dscpToTc);
            tcToQueue = sorted(tcToQueue);
        }

        public boolean configured() {
            return !queues.isEmpty();
        }

        // Here rather than in Settings: a record's DEFAULTS must not start Settings' initialisation, which reads them.
        private static Map<Integer, Integer> sorted(final Map<Integer, Integer> map) {
            return Collections.unmodifiableSortedMap(new TreeMap<>(map));
        }

        public Qos withQueues(final List<Queue> value) {
            return new Qos(value, dscpToTc, tcToQueue, trimmedQueue);
        }

        public Qos withDscpToTc(final Map<Integer, Integer> value) {
            return new Qos(queues, value, tcToQueue, trimmedQueue);
        }

        public Qos withTcToQueue(final Map<Integer, Integer> value) {
            return new Qos(queues, dscpToTc, value, trimmedQueue);
        }

        public Qos withTrimmedQueue(final Integer value) {
            return new Qos(queues, dscpToTc, tcToQueue, value);
        }
    }

    /** One data queue of every egress port; weight: a dwrr queue's share of the bytes the dwrr queues send. */
    @JsonPropertyOrder({"packets", "discard", "scheduling", "weight"})
    public record Queue(int packets, Discard discard, Scheduling scheduling, int weight) {
        public static final Queue DEFAULTS = new Queue(16, Discard.TRIM, Scheduling.DWRR, 1);

        public Queue withPackets(final int value) {
            return new Queue(value, discard, scheduling, weight);
        }

        public Queue withDiscard(final Discard value) {
            return new Queue(packets, value, scheduling, weight);
        }

        public Queue withScheduling(final Scheduling value) {
            return new Queue(packets, discard, value, weight);
        }

        public Queue withWeight(final int value) {
            return new Queue(packets, discard, scheduling, value);
        }
    }

    /** Recirculation (DoD) and mirror ports, one of each kind per pipeline. */
    @JsonPropertyOrder({"rateGbps", "latencyNs", "dodQueuePackets", "mirrorQueuePackets"})
    public record Recirculation(double rateGbps, double latencyNs, int dodQueuePackets, int mirrorQueuePackets) {
        public static final Recirculation DEFAULTS = new Recirculation(100, 1000, 16384, 16384);

        public Recirculation withDodQueuePackets(final int value) {
            return new Recirculation(rateGbps, latencyNs, value, mirrorQueuePackets);
        }
    }

    /**
     * What is trimmable and what a trimmed packet looks like (SONiC / Cumulus / UET terms). Packets trimmed towards a port
     * of {@code fabricPorts} are remarked to {@code fabricDscp} (null: {@code dscp} everywhere); the Ultra Ethernet marks
     * and the opt-out rules are written out only when given.
     */
    @JsonPropertyOrder({"sizeBytes", "dscp", "trimmableDscp", "ndpUdpPort", "returnToSender", "fabricDscp", "fabricPorts", "noTrimDscp", "disable"})
    public record Trim(int sizeBytes, int dscp, List<Integer> trimmableDscp, int ndpUdpPort, boolean returnToSender,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer fabricDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> fabricPorts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> noTrimDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<OptOut> disable) {
        public static final Trim DEFAULTS = new Trim(64, 11, List.of(10), 666, false, null, List.of(), List.of(), List.of());

        public Trim {
            trimmableDscp = List.copyOf(trimmableDscp);
            fabricPorts = List.copyOf(fabricPorts);
            noTrimDscp = List.copyOf(noTrimDscp);
            disable = List.copyOf(disable);
        }

        public Trim withSizeBytes(final int value) {
            return new Trim(value, dscp, trimmableDscp, ndpUdpPort, returnToSender, fabricDscp, fabricPorts, noTrimDscp, disable);
        }

        public Trim withDscp(final int value) {
            return new Trim(sizeBytes, value, trimmableDscp, ndpUdpPort, returnToSender, fabricDscp, fabricPorts, noTrimDscp, disable);
        }

        public Trim withTrimmableDscp(final List<Integer> value) {
            return new Trim(sizeBytes, dscp, value, ndpUdpPort, returnToSender, fabricDscp, fabricPorts, noTrimDscp, disable);
        }

        public Trim withReturnToSender(final boolean value) {
            return new Trim(sizeBytes, dscp, trimmableDscp, ndpUdpPort, value, fabricDscp, fabricPorts, noTrimDscp, disable);
        }

        public Trim withFabricDscp(final Integer value) {
            return new Trim(sizeBytes, dscp, trimmableDscp, ndpUdpPort, returnToSender, value, fabricPorts, noTrimDscp, disable);
        }

        public Trim withFabricPorts(final List<Integer> value) {
            return new Trim(sizeBytes, dscp, trimmableDscp, ndpUdpPort, returnToSender, fabricDscp, value, noTrimDscp, disable);
        }
    }

    /** A rule of the per-flow opt-out (SONiC's DISABLE_TRIM): every field given must match; a null field matches anything. */
    @JsonPropertyOrder({"source", "destination", "protocol", "destinationPorts", "dscp"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OptOut(@JsonSetter(nulls = Nulls.SET) String source, @JsonSetter(nulls = Nulls.SET) String destination,
        @JsonSetter(nulls = Nulls.SET) String protocol, @JsonSetter(nulls = Nulls.SET) String destinationPorts,
        @JsonSetter(nulls = Nulls.SET) Integer dscp) {
        public static final OptOut DEFAULTS = new OptOut(null, null, null, null, null);
    }

    /**
     * The ingress meters and the three-state trim control loop. Null rates and burst: derived from the port (see
     * {@link #halftimisticRateBps}, {@link #meterBurstBytes}); a null depthThresholdPackets: the queue's capacity less
     * staleStages. The NOTIFY scope is {@code notify} in YAML; a record cannot name a component after {@link Object#notify()}.
     */
    @JsonPropertyOrder({"meters", "t0Us", "t1Us", "halftimistic", "halftimisticRateGbps", "pessimisticRateGbps",
        "meterBurstBytes", "notify", "signal", "signalBacklog", "depthThresholdPackets", "staleStages", "loop"})
    public record Control(MeterProfile meters, double t0Us, double t1Us, boolean halftimistic,
        @JsonSetter(nulls = Nulls.SET) Double halftimisticRateGbps, @JsonSetter(nulls = Nulls.SET) Double pessimisticRateGbps,
        @JsonSetter(nulls = Nulls.SET) Integer meterBurstBytes, @JsonProperty("notify") NotifyScope notifyScope, SignalTrigger signal, int signalBacklog,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer depthThresholdPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = FourStages.class) int staleStages,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = PaperLoop.class) Loop loop) {
        public static final Control DEFAULTS = new Control(MeterProfile.THREE, 6, 24, true, null, null, null, NotifyScope.ALL,
            SignalTrigger.EVERY, 1, null, 4, Loop.PAPER);

        public Control withMeters(final MeterProfile value) {
            return new Control(value, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withT0Us(final double value) {
            return new Control(meters, value, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withT1Us(final double value) {
            return new Control(meters, t0Us, value, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withHalftimistic(final boolean value) {
            return new Control(meters, t0Us, t1Us, value, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withHalftimisticRateGbps(final Double value) {
            return new Control(meters, t0Us, t1Us, halftimistic, value, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withPessimisticRateGbps(final Double value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, value, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withMeterBurstBytes(final Integer value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, value, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withNotifyScope(final NotifyScope value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, value, signal,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withSignal(final SignalTrigger value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, value,
                signalBacklog, depthThresholdPackets, staleStages, loop);
        }

        public Control withSignalBacklog(final int value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                value, depthThresholdPackets, staleStages, loop);
        }

        public Control withDepthThresholdPackets(final Integer value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, value, staleStages, loop);
        }

        public Control withStaleStages(final int value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, value, loop);
        }

        public Control withLoop(final Loop value) {
            return new Control(meters, t0Us, t1Us, halftimistic, halftimisticRateGbps, pessimisticRateGbps, meterBurstBytes, notifyScope, signal,
                signalBacklog, depthThresholdPackets, staleStages, value);
        }
    }

    /** The traffic offered: a named pattern of senders, parsed against the fabric's ports by {@link Pattern#parse}. */
    @JsonPropertyOrder({"pattern", "packets", "packetBytes", "durationUs", "startJitter", "seed"})
    public record Workload(String pattern, int packets, int packetBytes, double durationUs, boolean startJitter, long seed) {
        public static final Workload DEFAULTS = new Workload("shift", 1000, 1500, 500, true, 1);

        public Workload withPattern(final String value) {
            return new Workload(value, packets, packetBytes, durationUs, startJitter, seed);
        }

        public Workload withPackets(final int value) {
            return new Workload(pattern, value, packetBytes, durationUs, startJitter, seed);
        }

        public Workload withPacketBytes(final int value) {
            return new Workload(pattern, packets, value, durationUs, startJitter, seed);
        }

        public Workload withDurationUs(final double value) {
            return new Workload(pattern, packets, packetBytes, value, startJitter, seed);
        }

        public Workload withStartJitter(final boolean value) {
            return new Workload(pattern, packets, packetBytes, durationUs, value, seed);
        }

        public Workload withSeed(final long value) {
            return new Workload(pattern, packets, packetBytes, durationUs, startJitter, value);
        }
    }

    /** How the workload's senders behave; a null flowSizes: every flow is workload.packets long. */
    @JsonPropertyOrder({"kind", "initialWindowPackets", "hosts", "propagationNs", "rtoUs", "maxDurationUs", "flowSizes",
        "backgroundLoad", "backgroundUs"})
    public record Transport(TransportKind kind, int initialWindowPackets, HostLayout hosts, double propagationNs, double rtoUs,
        double maxDurationUs, @JsonSetter(nulls = Nulls.SET) String flowSizes, double backgroundLoad, double backgroundUs) {
        public static final Transport DEFAULTS = new Transport(TransportKind.NDP, 1000, HostLayout.SEPARATE, 1000, 200, 100_000, null, 0, 500);

        public Transport withKind(final TransportKind value) {
            return new Transport(value, initialWindowPackets, hosts, propagationNs, rtoUs, maxDurationUs, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withInitialWindowPackets(final int value) {
            return new Transport(kind, value, hosts, propagationNs, rtoUs, maxDurationUs, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withHosts(final HostLayout value) {
            return new Transport(kind, initialWindowPackets, value, propagationNs, rtoUs, maxDurationUs, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withPropagationNs(final double value) {
            return new Transport(kind, initialWindowPackets, hosts, value, rtoUs, maxDurationUs, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withRtoUs(final double value) {
            return new Transport(kind, initialWindowPackets, hosts, propagationNs, value, maxDurationUs, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withMaxDurationUs(final double value) {
            return new Transport(kind, initialWindowPackets, hosts, propagationNs, rtoUs, value, flowSizes, backgroundLoad, backgroundUs);
        }

        public Transport withFlowSizes(final String value) {
            return new Transport(kind, initialWindowPackets, hosts, propagationNs, rtoUs, maxDurationUs, value, backgroundLoad, backgroundUs);
        }

        public Transport withBackgroundLoad(final double value) {
            return new Transport(kind, initialWindowPackets, hosts, propagationNs, rtoUs, maxDurationUs, flowSizes, value, backgroundUs);
        }

        public Transport withBackgroundUs(final double value) {
            return new Transport(kind, initialWindowPackets, hosts, propagationNs, rtoUs, maxDurationUs, flowSizes, backgroundLoad, value);
        }
    }

    /**
     * How the real-time runtime runs: time dilation, threads, and how idle threads wait. The live switch's own settings
     * are echoed only when they differ from their defaults, so that the reports of runs that cannot use them stay as they were.
     */
    @JsonPropertyOrder({"dilation", "placement", "idle", "warmUp", "batchPackets", "rxRingPackets", "pipelineThreads", "udpGso", "portKind"})
    public record RealTime(double dilation, Placement placement, Idle idle, boolean warmUp, int batchPackets, int rxRingPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OneThread.class) int pipelineThreads,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = GsoOn.class) boolean udpGso,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = PacketKind.class) @JsonSetter(nulls = Nulls.SET) String portKind) {
        /** How an interface port reads and sends its frames unless its own {@code kind} says otherwise. */
        public static final String DEFAULT_PORT_KIND = "af_packet";
        public static final RealTime DEFAULTS = new RealTime(4000, Placement.SINGLE, Idle.BUSY_SPIN, true, 32, 4096, 1, true, DEFAULT_PORT_KIND);

        public RealTime withDilation(final double value) {
            return new RealTime(value, placement, idle, warmUp, batchPackets, rxRingPackets, pipelineThreads, udpGso, portKind);
        }

        public RealTime withPlacement(final Placement value) {
            return new RealTime(dilation, value, idle, warmUp, batchPackets, rxRingPackets, pipelineThreads, udpGso, portKind);
        }

        public RealTime withIdle(final Idle value) {
            return new RealTime(dilation, placement, value, warmUp, batchPackets, rxRingPackets, pipelineThreads, udpGso, portKind);
        }

        public RealTime withWarmUp(final boolean value) {
            return new RealTime(dilation, placement, idle, value, batchPackets, rxRingPackets, pipelineThreads, udpGso, portKind);
        }

        public RealTime withPortKind(final String value) {
            return new RealTime(dilation, placement, idle, warmUp, batchPackets, rxRingPackets, pipelineThreads, udpGso, value);
        }

        public RealTime withPipelineThreads(final int value) {
            return new RealTime(dilation, placement, idle, warmUp, batchPackets, rxRingPackets, value, udpGso, portKind);
        }

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
    }

    /**
     * One switch port: a Linux interface ({@code interface}), or a UDP endpoint carrying VXLAN ({@code bind} and the rest).
     * A null remote: learned from the first datagram; a null remotePort: the bind port; a null rate: the fabric's.
     */
    @JsonPropertyOrder({"interface", "kind", "queues", "bind", "remote", "remotePort", "vni", "rateGbps"})
    public record Port(@JsonProperty("interface") @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) String interfaceName,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) String kind,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonSetter(nulls = Nulls.SET) Integer queues,
        @JsonSetter(nulls = Nulls.SET) String bind, @JsonSetter(nulls = Nulls.SET) String remote, @JsonSetter(nulls = Nulls.SET) Integer remotePort,
        int vni, @JsonSetter(nulls = Nulls.SET) Double rateGbps) {
        public static final Port DEFAULTS = new Port(null, null, null, null, null, null, 42, null);

        /** A port on a Linux interface rather than a UDP endpoint. */
        public boolean onInterface() {
            return interfaceName != null;
        }

        public Port withInterfaceName(final String value) {
            return new Port(value, kind, queues, bind, remote, remotePort, vni, rateGbps);
        }

        public Port withKind(final String value) {
            return new Port(interfaceName, value, queues, bind, remote, remotePort, vni, rateGbps);
        }

        public Port withQueues(final Integer value) {
            return new Port(interfaceName, kind, value, bind, remote, remotePort, vni, rateGbps);
        }

        public Port withBind(final String value) {
            return new Port(interfaceName, kind, queues, value, remote, remotePort, vni, rateGbps);
        }

        public Port withRemote(final String value) {
            return new Port(interfaceName, kind, queues, bind, value, remotePort, vni, rateGbps);
        }

        public Port withRemotePort(final Integer value) {
            return new Port(interfaceName, kind, queues, bind, remote, value, vni, rateGbps);
        }

        public Port withVni(final int value) {
            return new Port(interfaceName, kind, queues, bind, remote, remotePort, value, rateGbps);
        }

        public Port withRateGbps(final Double value) {
            return new Port(interfaceName, kind, queues, bind, remote, remotePort, vni, value);
        }
    }

    /** How {@code run} forwards: a learning bridge, IPv4 routes, or the model's table. */
    @JsonPropertyOrder({"mode", "agingSeconds", "macTableSize", "staticMacs", "routes"})
    public record Forwarding(
        ForwardingMode mode, double agingSeconds,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = DefaultMacTable.class) int macTableSize,
        List<StaticMac> staticMacs, List<Route> routes) {
        /** A MAC table's size unless the settings say otherwise: addresses per pipeline thread. */
        public static final int DEFAULT_MAC_TABLE_SIZE = 8192;
        public static final Forwarding DEFAULTS = new Forwarding(ForwardingMode.L2, 300, DEFAULT_MAC_TABLE_SIZE, List.of(), List.of());

        public Forwarding {
            staticMacs = List.copyOf(staticMacs);
            routes = List.copyOf(routes);
        }

        public Forwarding withMode(final ForwardingMode value) {
            return new Forwarding(value, agingSeconds, macTableSize, staticMacs, routes);
        }

        public Forwarding withMacTableSize(final int value) {
            return new Forwarding(mode, agingSeconds, value, staticMacs, routes);
        }

        public Forwarding withStaticMacs(final List<StaticMac> value) {
            return new Forwarding(mode, agingSeconds, macTableSize, value, routes);
        }

        public Forwarding withRoutes(final List<Route> value) {
            return new Forwarding(mode, agingSeconds, macTableSize, staticMacs, value);
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
    public record Metrics(@JsonSetter(nulls = Nulls.SET) String address,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) String countersFile,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) String controlGroup) {
        public static final Metrics DEFAULTS = new Metrics("127.0.0.1:9464", null, null);

        public Metrics withAddress(final String value) {
            return new Metrics(value, countersFile, controlGroup);
        }

        public Metrics withCountersFile(final String value) {
            return new Metrics(address, value, controlGroup);
        }
    }

    /** Leaves {@code qos} out of a written report while it has no queues, so the reproduced switch's reports stay as they were. */
    static final class NoQueues {
        @Override
        public boolean equals(final Object value) {
            return value instanceof Qos qos && qos.queues().isEmpty() && qos.dscpToTc().isEmpty() && qos.tcToQueue().isEmpty() && qos.trimmedQueue() == null;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Leaves {@code control.loop} out of a written report while it is the paper's. */
    static final class PaperLoop extends AtDefault {
        PaperLoop() {
            super(Loop.PAPER);
        }
    }

    /** Leaves {@code control.staleStages} out of a written report while it has its default. */
    static final class FourStages extends AtDefault {
        FourStages() {
            super(4);
        }
    }

    /** Leaves {@code realtime.pipelineThreads} out of a written report while it has its default. */
    static final class OneThread extends AtDefault {
        OneThread() {
            super(1);
        }
    }

    /** Leaves {@code realtime.udpGso} out of a written report while it has its default. */
    static final class GsoOn extends AtDefault {
        GsoOn() {
            super(true);
        }
    }

    /** Leaves {@code realtime.portKind} out of a written report while it is AF_PACKET. */
    static final class PacketKind extends AtDefault {
        PacketKind() {
            super(RealTime.DEFAULT_PORT_KIND);
        }
    }

    /** Leaves {@code forwarding.macTableSize} out of a written report while it is the default. */
    static final class DefaultMacTable extends AtDefault {
        DefaultMacTable() {
            super(Forwarding.DEFAULT_MAC_TABLE_SIZE);
        }
    }

    /**
     * A value filter for {@code @JsonInclude}: the setting is left out of a written report while it equals its default,
     * so that reports from before the setting existed stay as they were. Jackson makes one per setting, hence a subclass
     * per default.
     */
    abstract static class AtDefault {
        private final Object defaultValue;

        AtDefault(final Object defaultValue) {
            this.defaultValue = defaultValue;
        }

        @Override
        public boolean equals(final Object value) {
            return defaultValue.equals(value);
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    public Settings withMechanism(final Mechanism value) {
        return new Settings(value, clock, fabric, qos, recirculation, trim, control, workload, transport, realtime, ports, forwarding, metrics);
    }

    public Settings withClock(final Clock value) {
        return new Settings(mechanism, value, fabric, qos, recirculation, trim, control, workload, transport, realtime, ports, forwarding, metrics);
    }

    public Settings withFabric(final UnaryOperator<Fabric> edit) {
        return new Settings(mechanism, clock, edit.apply(fabric), qos, recirculation, trim, control, workload, transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withQos(final UnaryOperator<Qos> edit) {
        return new Settings(mechanism, clock, fabric, edit.apply(qos), recirculation, trim, control, workload, transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withRecirculation(final UnaryOperator<Recirculation> edit) {
        return new Settings(mechanism, clock, fabric, qos, edit.apply(recirculation), trim, control, workload, transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withTrim(final UnaryOperator<Trim> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, edit.apply(trim), control, workload, transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withControl(final UnaryOperator<Control> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, edit.apply(control), workload, transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withWorkload(final UnaryOperator<Workload> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, edit.apply(workload), transport, realtime, ports, forwarding,
            metrics);
    }

    public Settings withTransport(final UnaryOperator<Transport> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload, edit.apply(transport), realtime, ports, forwarding,
            metrics);
    }

    public Settings withRealtime(final UnaryOperator<RealTime> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload, transport, edit.apply(realtime), ports, forwarding,
            metrics);
    }

    public Settings withPorts(final List<Port> value) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload, transport, realtime, value, forwarding, metrics);
    }

    public Settings withForwarding(final UnaryOperator<Forwarding> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload, transport, realtime, ports, edit.apply(forwarding),
            metrics);
    }

    public Settings withMetrics(final UnaryOperator<Metrics> edit) {
        return new Settings(mechanism, clock, fabric, qos, recirculation, trim, control, workload, transport, realtime, ports, forwarding,
            edit.apply(metrics));
    }

    /** These settings, or a one-line {@link ConfigException} naming the first impossible value. */
    public Settings validate() {
        return SettingsValidation.validate(this);
    }

    /** The choice of {@code values} that {@code text} names, or a one-line {@link ConfigException} listing them. */
    public static <E extends Enum<E> & Choice> E choice(final String name, final String text, final E[] values) {
        for (final E value : values) {
            if (value.named(text)) {
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
        return withTransport(t -> t.withKind(TransportKind.OPEN_LOOP));
    }

    public boolean realTime() {
        return clock == Clock.REAL;
    }

    public boolean ndp() {
        return transport.kind == TransportKind.NDP;
    }

    /** Ultra Ethernet end hosts: one host per port, in virtual time. */
    public boolean uet() {
        return transport.kind == TransportKind.UET;
    }

    public boolean separateHosts() {
        return ndp() && transport.hosts == HostLayout.SEPARATE;
    }

    /** Egress ports of the traffic manager: one per port, and with separate NDP hosts one more per port for its sending host. */
    public int egressPorts() {
        return separateHosts() ? 2 * portCount() : portCount();
    }

    /** Recirculation (DoD) ports: as many as the mechanism lays out over the ports (one per pipeline unless it says otherwise). */
    public int recirculationPorts() {
        return mechanism.recirculationPorts(portCount(), fabric.portsPerPipeline);
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
