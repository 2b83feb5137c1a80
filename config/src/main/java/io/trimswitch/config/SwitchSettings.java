package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import io.trimswitch.config.SettingsChoices.Discard;
import io.trimswitch.config.SettingsChoices.Loop;
import io.trimswitch.config.SettingsChoices.MeterProfile;
import io.trimswitch.config.SettingsChoices.NotifyScope;
import io.trimswitch.config.SettingsChoices.Scheduling;
import io.trimswitch.config.SettingsChoices.SignalTrigger;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.pipelines.TrTcmMeter;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.trimswitch.config.SettingsValidation.MAX_QUEUES;
import static io.trimswitch.config.SettingsValidation.MAX_QUEUE_PACKETS;
import static io.trimswitch.config.SettingsValidation.MAX_TOTAL_PACKETS;
import static io.trimswitch.config.SettingsValidation.atLeast;
import static io.trimswitch.config.SettingsValidation.atMost;
import static io.trimswitch.config.SettingsValidation.rate;
import static io.trimswitch.config.SettingsValidation.within;

/**
 * The blocks of {@link Settings} that describe the switch itself: its fabric, queues and traffic classes, recirculation,
 * trimming and control loop. Reached as {@code Settings.Fabric} and the like, since {@link Settings} implements this; a
 * change is a new record through the generated withers ({@code withX}). Each block's {@code validate} holds its rules,
 * which {@link Settings#validate()} applies in turn; a rule that reads another block is given the whole settings.
 */
public interface SwitchSettings {
    /** The switch: pipelines, ports, the traffic manager's queues and scheduler; headersPerData 0 = strict priority for headers. */
    @JsonPropertyOrder({"pipelines", "portsPerPipeline", "portRateGbps", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    @SettingsBlock
    public record Fabric(int pipelines, int portsPerPipeline, double portRateGbps, int dataQueuePackets, int headerQueuePackets,
        int headersPerData) implements FabricBuilder.With {
        public static final Fabric DEFAULTS = new Fabric(4, 16, 100, 16, 1024, 10);

        /** Pipelines, ports, their rate and queues. */
        void validate() {
            atLeast("fabric.pipelines", pipelines, 1);
            atMost("fabric.pipelines", pipelines, 256);
            atLeast("fabric.portsPerPipeline", portsPerPipeline, 1);
            atMost("fabric ports (pipelines × portsPerPipeline)", (long) pipelines * portsPerPipeline, 4096);
            rate("fabric.portRateGbps", portRateGbps);
            within("fabric.dataQueuePackets", dataQueuePackets, 1, MAX_QUEUE_PACKETS);
            within("fabric.headerQueuePackets", headerQueuePackets, 1, MAX_QUEUE_PACKETS);
            within("fabric.headersPerData", headersPerData, 0, MAX_QUEUE_PACKETS);
        }
    }

    /**
     * Traffic classes and queues as SONiC configures them: DSCP → traffic class (DSCP_TO_TC_MAP), traffic class → queue
     * (TC_TO_QUEUE_MAP), and per queue its depth, discard action and scheduling. No queues: the reproduced switch, one
     * data queue of {@code fabric.dataQueuePackets} whose trimmable packets are those of {@code trim.trimmableDscp}.
     * The maps are sorted by key; a null trimmedQueue: trimmed packets wait in the header queue, ahead of data.
     */
    @JsonPropertyOrder({"queues", "dscpToTc", "tcToQueue", "trimmedQueue"})
    @SettingsBlock
    public record Qos(List<Queue> queues, Map<Integer, Integer> dscpToTc, Map<Integer, Integer> tcToQueue,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer trimmedQueue) implements QosBuilder.With {
        public static final Qos DEFAULTS = new Qos(List.of(), Map.of(), Map.of(), null);

        public Qos {
            queues = List.copyOf(queues);
            dscpToTc = sorted(dscpToTc);
            tcToQueue = sorted(tcToQueue);
        }

        public boolean configured() {
            return !queues.isEmpty();
        }

        /** Traffic classes: every DSCP reaches a queue that exists, through a class that exists. */
        void validate(final Settings s) {
            if (!configured()) {
                if (!dscpToTc.isEmpty() || !tcToQueue.isEmpty() || trimmedQueue != null) {
                    throw new ConfigException("qos.dscpToTc, qos.tcToQueue and qos.trimmedQueue name queues: list them in qos.queues");
                }
                return;
            }
            atMost("qos.queues (queues per port)", queues.size(), MAX_QUEUES);
            for (int i = 0; i < queues.size(); i++) {
                within("qos.queues[" + i + "].packets", queues.get(i).packets(), 1, MAX_QUEUE_PACKETS);
                within("qos.queues[" + i + "].weight", queues.get(i).weight(), 1, 1000);
            }
            dscpToTc.forEach((dscp, tc) -> {
                within("qos.dscpToTc key (a DSCP)", dscp, 0, 63);
                within("qos.dscpToTc[" + dscp + "] (a traffic class)", tc, 0, MAX_QUEUES - 1);
            });
            tcToQueue.forEach((tc, queue) -> {
                within("qos.tcToQueue key (a traffic class)", tc, 0, MAX_QUEUES - 1);
                within("qos.tcToQueue[" + tc + "] (a queue)", queue, 0, queues.size() - 1);
            });
            if (trimmedQueue != null) {
                within("qos.trimmedQueue", trimmedQueue, 0, queues.size() - 1);
            }
            for (int dscp = 0; dscp < 64; dscp++) {
                final int tc = dscpToTc.getOrDefault(dscp, 0);
                if (s.queueOf(dscp) >= queues.size()) {
                    throw new ConfigException("DSCP " + dscp + " is in traffic class " + tc + ", which goes to queue " + s.queueOf(dscp)
                        + ", but qos.queues has " + queues.size() + ": map the class in qos.tcToQueue");
                }
            }
            if (!s.trim().trimmableDscp().equals(List.of(10))) {
                throw new ConfigException("trim.trimmableDscp does not apply with qos.queues: the packets of a queue with discard: trim are the trimmable ones");
            }
        }

        // Here rather than in Settings: a record's DEFAULTS must not start Settings' initialisation, which reads them.
        private static Map<Integer, Integer> sorted(final Map<Integer, Integer> map) {
            return Collections.unmodifiableSortedMap(new TreeMap<>(map));
        }
    }

    /** One data queue of every egress port; weight: a dwrr queue's share of the bytes the dwrr queues send. */
    @JsonPropertyOrder({"packets", "discard", "scheduling", "weight"})
    @SettingsBlock
    public record Queue(int packets, Discard discard, Scheduling scheduling, int weight) implements QueueBuilder.With {
        public static final Queue DEFAULTS = new Queue(16, Discard.TRIM, Scheduling.DWRR, 1);
    }

    /** Recirculation (DoD) and mirror ports, one of each kind per pipeline. */
    @JsonPropertyOrder({"rateGbps", "latencyNs", "dodQueuePackets", "mirrorQueuePackets"})
    @SettingsBlock
    public record Recirculation(double rateGbps, double latencyNs, int dodQueuePackets, int mirrorQueuePackets) implements RecirculationBuilder.With {
        public static final Recirculation DEFAULTS = new Recirculation(100, 1000, 16384, 16384);

        /** Recirculation ports, and what all the queues together may hold. */
        void validate(final Settings s) {
            rate("recirculation.rateGbps", rateGbps);
            within("recirculation.latencyNs", latencyNs, 0, 1e9, "ns");
            within("recirculation.dodQueuePackets", dodQueuePackets, 1, MAX_QUEUE_PACKETS);
            within("recirculation.mirrorQueuePackets", mirrorQueuePackets, 1, MAX_QUEUE_PACKETS);
            final long queued = (long) s.egressPorts() * (s.dataQueuePacketsPerPort() + s.fabric().headerQueuePackets())
                + (long) s.recirculationPorts() * Math.max(dodQueuePackets, mirrorQueuePackets);
            if (queued > MAX_TOTAL_PACKETS) {
                throw new ConfigException("the queues together would hold " + queued + " packets, more than the " + MAX_TOTAL_PACKETS
                    + " a switch may buffer: make fabric.dataQueuePackets, fabric.headerQueuePackets or recirculation.dodQueuePackets smaller");
            }
        }
    }

    /**
     * What is trimmable and what a trimmed packet looks like (SONiC / Cumulus / UET terms). Packets trimmed towards a port
     * of {@code fabricPorts} are remarked to {@code fabricDscp} (null: {@code dscp} everywhere); the Ultra Ethernet marks
     * and the opt-out rules are written out only when given.
     */
    @JsonPropertyOrder({"sizeBytes", "dscp", "trimmableDscp", "ndpUdpPort", "returnToSender", "fabricDscp", "fabricPorts", "noTrimDscp", "disable"})
    @SettingsBlock
    public record Trim(int sizeBytes, int dscp, List<Integer> trimmableDscp, int ndpUdpPort, boolean returnToSender,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer fabricDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> fabricPorts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> noTrimDscp,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<OptOut> disable) implements TrimBuilder.With {
        public static final Trim DEFAULTS = new Trim(64, 11, List.of(10), 666, false, null, List.of(), List.of(), List.of());

        public Trim {
            trimmableDscp = List.copyOf(trimmableDscp);
            fabricPorts = List.copyOf(fabricPorts);
            noTrimDscp = List.copyOf(noTrimDscp);
            disable = List.copyOf(disable);
        }

        /** What a trimmed packet keeps and how it is marked; which packets are trimmable. */
        void validate(final Settings s) {
            for (final int dscp : trimmableDscp) {
                if (dscp < 0 || dscp > 63) {
                    throw new ConfigException("trim.trimmableDscp values must be 0..63, got " + dscp);
                }
            }
            within("trim.sizeBytes", sizeBytes, TrimSettings.NDP_HEADERS, PacketPool.SLOT_BYTES);
            within("trim.dscp", dscp, 0, 63);
            within("trim.ndpUdpPort", ndpUdpPort, 1, 65535);
            if (fabricDscp != null) {
                within("trim.fabricDscp", fabricDscp, 0, 63);
            }
            for (final int port : fabricPorts) {
                within("trim.fabricPorts values", port, 0, s.portCount() - 1);
            }
            for (final int dscp : noTrimDscp) {
                within("trim.noTrimDscp values", dscp, 0, 63);
                if (!s.qos().configured() && trimmableDscp.contains(dscp)) {
                    throw new ConfigException("trim.noTrimDscp " + dscp + " is also in trim.trimmableDscp: a DSCP cannot be both");
                }
            }
            try {
                s.trimSettings();
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("trim: " + e.getMessage());
            }
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
    @SettingsBlock
    public record Control(MeterProfile meters, double t0Us, double t1Us, boolean halftimistic,
        @JsonSetter(nulls = Nulls.SET) Double halftimisticRateGbps, @JsonSetter(nulls = Nulls.SET) Double pessimisticRateGbps,
        @JsonSetter(nulls = Nulls.SET) Integer meterBurstBytes, @JsonProperty("notify") NotifyScope notifyScope, SignalTrigger signal, int signalBacklog,
        @JsonSetter(nulls = Nulls.SET) @JsonInclude(JsonInclude.Include.NON_NULL) Integer depthThresholdPackets,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.FourStages.class) int staleStages,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.PaperLoop.class) Loop loop) implements ControlBuilder.With {
        public static final Control DEFAULTS = new Control(MeterProfile.THREE, 6, 24, true, null, null, null, NotifyScope.ALL,
            SignalTrigger.EVERY, 1, null, 4, Loop.PAPER);

        /** The trim control loop: T0/T1, the meter profile and rates, the NOTIFY scope and trigger. */
        void validate(final Settings s) {
            within("control.t0Us", t0Us, 0, 1e6, "µs");
            within("control.t1Us", t1Us, 0, 1e6, "µs");
            if (halftimistic && !(t1Us >= t0Us)) {
                throw new ConfigException("control.t1Us (" + t1Us + ") must not be below control.t0Us (" + t0Us + ")");
            }
            within("control.signalBacklog", signalBacklog, 0, MAX_QUEUE_PACKETS);
            if (depthThresholdPackets != null) {
                within("control.depthThresholdPackets", depthThresholdPackets, 1, MAX_QUEUE_PACKETS);
            }
            within("control.staleStages", staleStages, 0, 64);
            if (loop == Loop.BACKLOG && !s.mechanism().drivesNotifyLoop()) {
                throw new ConfigException("control.loop backlog needs mechanism tofino, the one whose NOTIFYs drive a loop; got " + s.mechanism().label());
            }
            // A rate is checked as written: NaN would round to a rate of 0 and trim everything.
            if (halftimisticRateGbps != null) {
                within("control.halftimisticRateGbps", halftimisticRateGbps, 0, s.fabric().portRateGbps(), "Gb/s");
            }
            if (pessimisticRateGbps != null) {
                within("control.pessimisticRateGbps", pessimisticRateGbps, 0, s.fabric().portRateGbps(), "Gb/s");
            }
            final long rate = s.portRateBps();
            final long half = s.halftimisticRateBps();
            final long pessimistic = s.pessimisticRateBps();
            if (half < 0 || half > rate) {
                throw new ConfigException("control.halftimisticRateGbps must be 0.." + s.fabric().portRateGbps() + " Gb/s, got " + half / 1e9);
            }
            if (pessimistic < 0 || pessimistic > half) {
                throw new ConfigException("control.pessimisticRateGbps (" + pessimistic / 1e9 + " Gb/s) must not be above control.halftimisticRateGbps ("
                    + half / 1e9 + " Gb/s)");
            }
            atLeast("control.meterBurstBytes", s.meterBurstBytes(), 1);
            atMost("control.meterBurstBytes", s.meterBurstBytes(), TrTcmMeter.MAX_BURST_BYTES);
        }
    }
}
