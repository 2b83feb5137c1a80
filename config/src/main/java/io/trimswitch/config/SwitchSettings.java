package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a run of the switch is made of, as the YAML file spells it. Defaults are the reproduced
 * switch's (64 × 100 Gb/s, 16-packet data queues); units are in the names. This is the editable form that a
 * file, the CLI's options and the experiments write; {@link #validate()} turns it into the {@link Settings} a run is
 * built from, or any impossible value into a {@link ConfigException}.
 */
@JsonPropertyOrder({"mechanism", "clock", "fabric", "qos", "recirculation", "trim", "control", "workload", "transport", "realtime", "ports", "forwarding", "metrics"})
public final class SwitchSettings {
    /** ideal | mod | dod | tofino | tofino2 */
    public String mechanism = "tofino";
    /** virtual: the deterministic discrete-event runtime; real: agent threads paced by the host clock. */
    public String clock = "virtual";
    public Fabric fabric = new Fabric();
    /** Traffic classes and a port's data queues; written out only when it has queues. */
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = NoQueues.class)
    public Qos qos = new Qos();
    public Recirculation recirculation = new Recirculation();
    public Trim trim = new Trim();
    public Control control = new Control();
    public Workload workload = new Workload();
    public Transport transport = new Transport();
    public RealTime realtime = new RealTime();
    /** {@code trimswitch run}: the switch's ports (interfaces or UDP/VXLAN endpoints), port 0 first; empty for the model's runs. */
    public List<Port> ports = new ArrayList<>();
    public Forwarding forwarding = new Forwarding();
    public Metrics metrics = new Metrics();

    /** The switch: pipelines, ports, the traffic manager's queues and scheduler. */
    @JsonPropertyOrder({"pipelines", "portsPerPipeline", "portRateGbps", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    public static final class Fabric {
        public int pipelines = 4;
        public int portsPerPipeline = 16;
        public double portRateGbps = 100;
        public int dataQueuePackets = 16;
        public int headerQueuePackets = 1024;
        /** Data packets get at least one turn per this many headers; 0 = strict priority for headers. */
        public int headersPerData = 10;
    }

    /**
     * Traffic classes and queues as SONiC configures them: DSCP → traffic class (DSCP_TO_TC_MAP), traffic class →
     * queue (TC_TO_QUEUE_MAP), and per queue its depth, what happens to a packet that does not fit (the buffer
     * profile's packet_discard_action) and how the scheduler serves it (SCHEDULER). No queues: the reproduced switch,
     * one data queue of {@code fabric.dataQueuePackets} whose trimmable packets are those of {@code trim.trimmableDscp}.
     */
    @JsonPropertyOrder({"queues", "dscpToTc", "tcToQueue", "trimmedQueue"})
    public static final class Qos {
        /** A port's data queues, queue 0 first, at most 8; trimmed packets go to the header queue unless trimmedQueue names one. */
        public List<Queue> queues = new ArrayList<>();
        /** DSCP → traffic class 0..7; a DSCP not listed is in class 0. */
        public Map<Integer, Integer> dscpToTc = new TreeMap<>();
        /** Traffic class → queue; a class not listed goes to the queue of its own number. */
        public Map<Integer, Integer> tcToQueue = new TreeMap<>();
        /** The data queue trimmed packets wait in (SONiC's queue_index); null: the header queue, ahead of data. */
        @JsonSetter(nulls = Nulls.SET)
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Integer trimmedQueue;
    }

    /** One data queue of every egress port. */
    @JsonPropertyOrder({"packets", "discard", "scheduling", "weight"})
    public static final class Queue {
        public int packets = 16;
        /** trim: a packet that does not fit is cut to its header (as the mechanism does it) | drop: it is dropped. */
        public String discard = "trim";
        /** strict: served before every dwrr queue, higher queue first | dwrr: deficit weighted round robin by weight. */
        public String scheduling = "dwrr";
        /** dwrr: this queue's share of the bytes the dwrr queues send, relative to the others' weights. */
        public int weight = 1;
    }

    /** Leaves {@code qos} out of a written report while it has no queues, so the reproduced switch's reports stay as they were. */
    static final class NoQueues {
        @Override
        public boolean equals(final Object value) {
            return value instanceof Qos qos && qos.queues.isEmpty() && qos.dscpToTc.isEmpty() && qos.tcToQueue.isEmpty() && qos.trimmedQueue == null
                || value instanceof Settings.Qos typed && typed.queues().isEmpty() && typed.dscpToTc().isEmpty() && typed.tcToQueue().isEmpty()
                && typed.trimmedQueue() == null;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Recirculation (DoD) and mirror ports, one of each kind per pipeline. */
    @JsonPropertyOrder({"rateGbps", "latencyNs", "dodQueuePackets", "mirrorQueuePackets"})
    public static final class Recirculation {
        public double rateGbps = 100;
        public double latencyNs = 1000;
        public int dodQueuePackets = 16384;
        public int mirrorQueuePackets = 16384;
    }

    /** What is trimmable and what a trimmed packet looks like (SONiC / Cumulus / UET terms). */
    @JsonPropertyOrder({"sizeBytes", "dscp", "trimmableDscp", "ndpUdpPort", "returnToSender", "fabricDscp", "fabricPorts", "noTrimDscp", "disable"})
    public static final class Trim {
        public int sizeBytes = 64;
        /** DSCP a trimmed packet is remarked to. */
        public int dscp = 11;
        public List<Integer> trimmableDscp = new ArrayList<>(List.of(10));
        public int ndpUdpPort = 666;
        /** A header meeting a full header queue goes back to its sender instead of being dropped. */
        public boolean returnToSender = false;
        /**
         * Packets trimmed towards a port of {@code fabricPorts} are remarked to this DSCP (Ultra Ethernet's TRIMMED),
         * those trimmed towards a host to {@code dscp} (TRIMMED_LASTHOP); null: {@code dscp} everywhere.
         */
        @JsonSetter(nulls = Nulls.SET)
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Integer fabricDscp;
        /** The ports that face the fabric rather than a host. */
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        public List<Integer> fabricPorts = new ArrayList<>();
        /** DSCPs never trimmed, whatever their queue (Ultra Ethernet's NO_TRIM). */
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        public List<Integer> noTrimDscp = new ArrayList<>();
        /** Flows that opt out of trimming (SONiC's DISABLE_TRIM ACL action): a packet matching a rule is never trimmed. */
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        public List<OptOut> disable = new ArrayList<>();
    }

    /** A rule of the per-flow opt-out: every field given must match; a field left out matches anything. */
    @JsonPropertyOrder({"source", "destination", "protocol", "destinationPorts", "dscp"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static final class OptOut {
        /** a.b.c.d/len */
        @JsonSetter(nulls = Nulls.SET)
        public String source;
        @JsonSetter(nulls = Nulls.SET)
        public String destination;
        /** udp | tcp | an IP protocol number */
        @JsonSetter(nulls = Nulls.SET)
        public String protocol;
        /** N or N-M: the UDP or TCP destination port */
        @JsonSetter(nulls = Nulls.SET)
        public String destinationPorts;
        @JsonSetter(nulls = Nulls.SET)
        public Integer dscp;
    }

    /** The ingress meters and the three-state trim control loop. */
    @JsonPropertyOrder({"meters", "t0Us", "t1Us", "halftimistic", "halftimisticRateGbps", "pessimisticRateGbps",
        "meterBurstBytes", "notify", "signal", "signalBacklog", "depthThresholdPackets", "staleStages", "loop"})
    public static final class Control {
        /** three (one meter per state) | two (opti + pesi, the production-router profile) */
        public String meters = "three";
        /** Pessimistic for T0 after a NOTIFY. */
        public double t0Us = 6;
        /** Halftimistic until T1 after a NOTIFY (T1 >= T0). */
        public double t1Us = 24;
        /** false: pessimistic goes straight back to optimistic. */
        public boolean halftimistic = true;
        /** Null: half the port rate. */
        @JsonSetter(nulls = Nulls.SET)
        public Double halftimisticRateGbps;
        /** Null: a quarter of the port rate; 0 trims everything while pessimistic. */
        @JsonSetter(nulls = Nulls.SET)
        public Double pessimisticRateGbps;
        /** Null: the data queue's capacity in bytes (the meter plays the egress buffer), at most 512 KiB. */
        @JsonSetter(nulls = Nulls.SET)
        public Integer meterBurstBytes;
        /** all | origin: which pipelines a NOTIFY reaches. */
        public String notify = "all";
        /** every | backlog: which deflected packets raise a signal. */
        public String signal = "every";
        public int signalBacklog = 1;
        /** tofino2: trim at or above this queue depth as ingress reads it; null: the queue's capacity less staleStages. */
        @JsonSetter(nulls = Nulls.SET)
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Integer depthThresholdPackets;
        /** tofino2: ingress stages after the depth read, in each pipeline; the read misses the packets in them. */
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = FourStages.class)
        public int staleStages = 4;
        /**
         * tofino: paper (T0 and T1 from each NOTIFY's arrival) | backlog (a NOTIFY delayed by a DoD backlog keeps the port
         * pessimistic at least as long as it was delayed, and halftimistic as much longer).
         */
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = PaperLoop.class)
        public String loop = "paper";
    }

    /** Leaves {@code control.loop} out of a written report while it is the paper's, in either form. */
    static final class PaperLoop extends AtDefault {
        PaperLoop() {
            super("paper", Settings.Loop.PAPER);
        }
    }

    /** Leaves {@code control.staleStages} out of a written report while it has its default. */
    static final class FourStages extends AtDefault {
        FourStages() {
            super(4);
        }
    }

    /** The traffic offered: a named pattern of open-loop senders (incast, mod16, shift, pairs). */
    @JsonPropertyOrder({"pattern", "packets", "packetBytes", "durationUs", "startJitter", "seed"})
    public static final class Workload {
        /** incast:N->K | mod16:N | shift | pairs:S->D,... */
        public String pattern = "shift";
        public int packets = 1000;
        public int packetBytes = 1500;
        public double durationUs = 500;
        /** Start each sender at a seeded random offset within one packet time. */
        public boolean startJitter = true;
        public long seed = 1;
    }

    /** How the workload's senders behave: blasting open loop, or NDP end hosts with pull pacing. */
    @JsonPropertyOrder({"kind", "initialWindowPackets", "hosts", "propagationNs", "rtoUs", "maxDurationUs", "flowSizes",
        "backgroundLoad", "backgroundUs"})
    public static final class Transport {
        /** ndp: NDP hosts that retransmit until every flow completes; open-loop: senders blast and stop. */
        public String kind = "ndp";
        /** Packets an NDP sender sends at line rate before waiting for pulls. */
        public int initialWindowPackets = 1000;
        /** separate: each port's sending and receiving hosts are different machines; shared: one host per port. */
        public String hosts = "separate";
        /** One-way delay of every host link. */
        public double propagationNs = 1000;
        /** An NDP sender resends what is still unacknowledged after this long without progress. */
        public double rtoUs = 200;
        /** An NDP run ends when every flow has completed, or after this long. */
        public double maxDurationUs = 100_000;
        /** Null: every flow is workload.packets long; else a CSV of flow sizes in packets, one per line, drawn per flow (seeded). */
        @JsonSetter(nulls = Nulls.SET)
        public String flowSizes;
        /**
         * NDP background traffic: every sending host also starts flows to random other ports, Poisson arrivals
         * offering this fraction of its line rate (0: none), with sizes as for the pattern's flows.
         */
        public double backgroundLoad = 0;
        /** Background flows arrive during the first this-many microseconds of the run. */
        public double backgroundUs = 500;
    }

    /**
     * How the real-time runtime runs: time dilation, threads, and how idle threads wait. The live switch's own
     * settings appear in a report's echo of its settings only when they differ from their defaults, so that the
     * reports of runs that cannot use them stay as they were.
     */
    @JsonPropertyOrder({"dilation", "placement", "idle", "warmUp", "batchPackets", "rxRingPackets", "pipelineThreads", "udpGso"})
    public static final class RealTime {
        /**
         * Every rate is divided and every time constant multiplied by this, so that the switch fits the host:
         * one microsecond of switch time takes {@code dilation} microseconds of wall time.
         */
        public double dilation = 4000;
        /**
         * single (every agent on one thread: on a two-core host the other core stays free for the JVM and the OS),
         * split (ports and ingress | egress and recirculation), per-role (four threads) or per-agent.
         */
        public String placement = "single";
        /**
         * busy-spin | yield | backoff | sleep | block: what a thread does when its agents had nothing to do; block:
         * a live switch's thread with nothing inside sleeps in epoll_wait until a socket has data (elsewhere: backoff).
         */
        public String idle = "busy-spin";
        /** Run the workload once before the measured run, so that the JIT has compiled the dataplane. */
        public boolean warmUp = true;
        /** Packets an agent takes from one ring per duty cycle. */
        public int batchPackets = 32;
        /** Capacity of each ingress pipeline's receive ring. */
        public int rxRingPackets = 4096;
        /**
         * {@code run}: busy-polling threads that share out the pipelines (pipeline p on thread p mod N), each
         * reading and sending its pipelines' ports itself.
         */
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OneThread.class)
        public int pipelineThreads = 1;
        /**
         * {@code run}: a run of equal-size datagrams to a port's host goes to the kernel as one UDP GSO send, which
         * the kernel cuts apart; false sends each datagram on its own (still batched, sendmmsg).
         */
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = GsoOn.class)
        public boolean udpGso = true;
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

    /**
     * A value filter for {@code @JsonInclude}: the setting is left out of a written report while it equals its default,
     * so that reports from before the setting existed stay as they were. Jackson makes one per setting, hence a subclass
     * per default.
     */
    abstract static class AtDefault {
        private final java.util.Set<Object> defaults;

        AtDefault(final Object... defaults) {
            this.defaults = java.util.Set.of(defaults);
        }

        @Override
        public boolean equals(final Object value) {
            return defaults.contains(value);
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /**
     * One switch port: a Linux interface ({@code interface}), or a UDP endpoint carrying VXLAN ({@code bind} and the
     * rest); one or the other.
     */
    @JsonPropertyOrder({"interface", "bind", "remote", "remotePort", "vni", "rateGbps"})
    public static final class Port {
        /** The Linux interface (a veth, a NIC) the port sits on, through an AF_PACKET socket. */
        @JsonProperty("interface")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        @JsonSetter(nulls = Nulls.SET)
        public String interfaceName;
        /** host:port the port listens on. */
        @JsonSetter(nulls = Nulls.SET)
        public String bind;
        /** host:port of the attached host's VTEP; null: learned from the first datagram. */
        @JsonSetter(nulls = Nulls.SET)
        public String remote;
        /** With the remote learned, the UDP port to send to; null: the bind port (what Linux vxlan's dstport does). */
        @JsonSetter(nulls = Nulls.SET)
        public Integer remotePort;
        /** The VXLAN network identifier the port's datagrams carry. */
        public int vni = 42;
        /** The port's rate limit; null: fabric.portRateGbps. */
        @JsonSetter(nulls = Nulls.SET)
        public Double rateGbps;
    }

    /** How {@code run} forwards: a learning bridge, IPv4 routes, or the model's table. */
    @JsonPropertyOrder({"mode", "agingSeconds", "staticMacs", "routes"})
    public static final class Forwarding {
        /** l2: learning bridge, flooding unknown and broadcast | routed: longest prefix match | subnet: 10.0.p.0/24 → port p */
        public String mode = "l2";
        public double agingSeconds = 300;
        public List<StaticMac> staticMacs = new ArrayList<>();
        public List<Route> routes = new ArrayList<>();
    }

    /** A MAC address that always lives on one port. */
    public static final class StaticMac {
        @JsonSetter(nulls = Nulls.SET)
        public String mac;
        public int port;
    }

    /** Routed forwarding: a prefix leaves by a port towards a next hop's MAC. */
    public static final class Route {
        /** a.b.c.d/len */
        @JsonSetter(nulls = Nulls.SET)
        public String prefix;
        public int port;
        @JsonSetter(nulls = Nulls.SET)
        public String nextHopMac;
    }

    /** Where a live switch's counters can be read: its HTTP endpoint (Prometheus text format) and its counters file. */
    public static final class Metrics {
        /** host:port; loopback unless set otherwise; null: no endpoint. */
        @JsonSetter(nulls = Nulls.SET)
        public String address = "127.0.0.1:9464";
        /** The memory-mapped file of the switch's counters, which {@code stats} reads; null: one per network namespace under /dev/shm. */
        // Left out of reports at its default, so that reports written before it existed stay as they were.
        @JsonSetter(nulls = Nulls.SET)
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public String countersFile;
        /** A group whose members may use the switch's control socket besides root (mode 0660); null: root only (0600). */
        @JsonSetter(nulls = Nulls.SET)
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public String controlGroup;
    }

    /** Fails with one clear line on the first impossible value; else the run's typed, immutable settings. */
    public Settings validate() {
        return SettingsValidation.validate(Settings.from(this));
    }

    /**
     * {@link #validate()} with another mechanism and clock, the rest as it is: the typed settings copy what they keep, so
     * runs that differ only in these two need no deep copy of the editable settings, whose reflective field-by-field
     * copy is a tenth of a short run's CPU time on a cold JVM. These settings are left as they were.
     */
    public Settings validateAs(final String otherMechanism, final String otherClock) {
        final String ownMechanism = mechanism;
        final String ownClock = clock;
        try {
            mechanism = otherMechanism;
            clock = otherClock;
            return validate();
        } finally {
            mechanism = ownMechanism;
            clock = ownClock;
        }
    }

    /** A deep copy, so that one run's overrides never leak into another. */
    public SwitchSettings copy() {
        return SettingsCopy.of(this);
    }
}
