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

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The blocks of {@link Settings} that describe the switch itself: its fabric, queues and traffic classes, recirculation,
 * trimming and control loop. Reached as {@code Settings.Fabric} and the like, since {@link Settings} implements this; a
 * change is a new record through the generated withers ({@code withX}).
 */
public interface SwitchSettings {
    /** The switch: pipelines, ports, the traffic manager's queues and scheduler; headersPerData 0 = strict priority for headers. */
    @JsonPropertyOrder({"pipelines", "portsPerPipeline", "portRateGbps", "dataQueuePackets", "headerQueuePackets", "headersPerData"})
    @SettingsBlock
    public record Fabric(int pipelines, int portsPerPipeline, double portRateGbps, int dataQueuePackets, int headerQueuePackets,
        int headersPerData) implements FabricBuilder.With {
        public static final Fabric DEFAULTS = new Fabric(4, 16, 100, 16, 1024, 10);
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
    }
}
