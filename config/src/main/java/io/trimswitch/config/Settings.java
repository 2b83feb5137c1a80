package io.trimswitch.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.trimswitch.config.RealTimeSettings.Forwarding;
import io.trimswitch.config.RealTimeSettings.Metrics;
import io.trimswitch.config.RealTimeSettings.Port;
import io.trimswitch.config.RealTimeSettings.RealTime;
import io.trimswitch.config.SettingsChoices.Clock;
import io.trimswitch.config.SwitchSettings.Control;
import io.trimswitch.config.SwitchSettings.Fabric;
import io.trimswitch.config.SwitchSettings.Qos;
import io.trimswitch.config.SwitchSettings.Recirculation;
import io.trimswitch.config.SwitchSettings.Trim;
import io.trimswitch.config.TrafficSettings.Transport;
import io.trimswitch.config.TrafficSettings.Workload;
import io.trimswitch.dataplane.packet.TrimOptOut;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.pipelines.TrTcmMeter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Everything a run of the switch is made of, as the YAML file spells it: typed, immutable values, every choice an enum,
 * every list unmodifiable. Each record's {@code DEFAULTS} is the reproduced switch's (64 × 100 Gb/s, 16-packet data
 * queues), and a key a file leaves out takes its value from there ({@link SettingsFiles}); units are in the names. A
 * change is a new record ({@code withX}); {@link #validate()} turns any impossible value into a {@link ConfigException}.
 * A report echoes the settings with the same keys and spellings as the file.
 */
@SettingsBlock
@JsonPropertyOrder({"mechanism", "clock", "fabric", "qos", "recirculation", "trim", "control", "workload", "transport", "realtime", "ports", "forwarding", "metrics"})
public record Settings(
    Mechanism mechanism,
    Clock clock,
    Fabric fabric,
    @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = ReportedDefaults.NoQueues.class) Qos qos,
    Recirculation recirculation,
    Trim trim,
    Control control,
    Workload workload,
    Transport transport,
    RealTime realtime,
    List<Port> ports,
    Forwarding forwarding,
    Metrics metrics) implements SettingsBuilder.With, SettingsChoices, SwitchSettings, TrafficSettings, RealTimeSettings {

    public static final Settings DEFAULTS = new Settings(Mechanism.TOFINO, Clock.VIRTUAL, Fabric.DEFAULTS, Qos.DEFAULTS, Recirculation.DEFAULTS,
        Trim.DEFAULTS, Control.DEFAULTS, Workload.DEFAULTS, Transport.DEFAULTS, RealTime.DEFAULTS, List.of(), Forwarding.DEFAULTS, Metrics.DEFAULTS);

    public Settings {
        ports = List.copyOf(ports);
    }

    public Settings withFabric(final UnaryOperator<Fabric> edit) {
        return withFabric(edit.apply(fabric));
    }

    public Settings withQos(final UnaryOperator<Qos> edit) {
        return withQos(edit.apply(qos));
    }

    public Settings withRecirculation(final UnaryOperator<Recirculation> edit) {
        return withRecirculation(edit.apply(recirculation));
    }

    public Settings withTrim(final UnaryOperator<Trim> edit) {
        return withTrim(edit.apply(trim));
    }

    public Settings withControl(final UnaryOperator<Control> edit) {
        return withControl(edit.apply(control));
    }

    public Settings withWorkload(final UnaryOperator<Workload> edit) {
        return withWorkload(edit.apply(workload));
    }

    public Settings withTransport(final UnaryOperator<Transport> edit) {
        return withTransport(edit.apply(transport));
    }

    public Settings withRealtime(final UnaryOperator<RealTime> edit) {
        return withRealtime(edit.apply(realtime));
    }

    public Settings withForwarding(final UnaryOperator<Forwarding> edit) {
        return withForwarding(edit.apply(forwarding));
    }

    public Settings withMetrics(final UnaryOperator<Metrics> edit) {
        return withMetrics(edit.apply(metrics));
    }

    /** Whether {@code type} is one of the settings' blocks (a record declared among them), read key by key from a file. */
    static boolean isBlock(final Class<?> type) {
        return type.isRecord() && type.getEnclosingClass() != null && type.getEnclosingClass().isAssignableFrom(Settings.class);
    }

    /**
     * These settings, or a one-line {@link ConfigException} naming the first impossible value: each block checks its own
     * (its {@code validate}), in the order that lets a derived value (the meters' bucket, from the frame size) be read.
     */
    public Settings validate() {
        fabric.validate();
        qos.validate(this);
        recirculation.validate(this);
        workload.validateFrame();
        trim.validate(this);
        control.validate(this);
        workload.validate();
        transport.validate();
        realtime.validate(this);
        transport.validateSequenceNumbers(workload);
        return this;
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
        return TransportKind.NDP.equals(transport.kind());
    }

    /** Ultra Ethernet end hosts: one host per port, in virtual time. */
    public boolean uet() {
        return TransportKind.UET.equals(transport.kind());
    }

    public boolean separateHosts() {
        return ndp() && transport.hosts() == HostLayout.SEPARATE;
    }

    /** Egress ports of the traffic manager: one per port, and with separate NDP hosts one more per port for its sending host. */
    public int egressPorts() {
        return separateHosts() ? 2 * portCount() : portCount();
    }

    /** Recirculation (DoD) ports: as many as the mechanism lays out over the ports (one per pipeline unless it says otherwise). */
    public int recirculationPorts() {
        return mechanism.recirculationPorts(portCount(), fabric.portsPerPipeline());
    }

    /**
     * tofino2's trim threshold on the queue depth ingress reads. By default the read queue's capacity less one packet per
     * stale stage, so that what the read misses still fits.
     */
    public int depthThresholdPackets() {
        return control.depthThresholdPackets() == null
            ? Math.max(1, dataQueuePackets(depthReadQueue()) - control.staleStages()) : control.depthThresholdPackets();
    }

    /** The data queue whose depth tofino2's ingress reads: the first that trims (the only one without traffic classes). */
    public int depthReadQueue() {
        for (int queue = 0; queue < dataQueueCount(); queue++) {
            if (!qos.configured() || qos.queues().get(queue).discard() == Discard.TRIM) {
                return queue;
            }
        }
        return 0;
    }

    /** The switch's ports: pipelines × ports per pipeline. */
    public int portCount() {
        return fabric.pipelines() * fabric.portsPerPipeline();
    }

    public long portRateBps() {
        return Math.round(fabric.portRateGbps() * 1e9);
    }

    /** Egress port {@code port}'s rate: its own limit when {@code run} sets one, else the fabric's. */
    public long portRateBps(final int port) {
        final int switchPort = port % portCount();
        final Double own = switchPort < ports.size() ? ports.get(switchPort).rateGbps() : null;
        return own == null ? portRateBps() : Math.round(own * 1e9);
    }

    public long halftimisticRateBps(final int port) {
        return control.halftimisticRateGbps() == null ? portRateBps(port) / 2 : Math.round(control.halftimisticRateGbps() * 1e9);
    }

    public long pessimisticRateBps(final int port) {
        return control.pessimisticRateGbps() == null ? portRateBps(port) / 4 : Math.round(control.pessimisticRateGbps() * 1e9);
    }

    public long halftimisticRateBps() {
        return control.halftimisticRateGbps() == null ? portRateBps() / 2 : Math.round(control.halftimisticRateGbps() * 1e9);
    }

    public long pessimisticRateBps() {
        return control.pessimisticRateGbps() == null ? portRateBps() / 4 : Math.round(control.pessimisticRateGbps() * 1e9);
    }

    /** The DSCP the workload's data frames carry: the first trimmable one, or 0 when none is. */
    public int workloadDscp() {
        return trim.trimmableDscp().isEmpty() ? 0 : trim.trimmableDscp().get(0);
    }

    public int meterBurstBytes() {
        // The meter plays the egress buffer; a deep data queue is capped at the largest bucket a meter has.
        return control.meterBurstBytes() == null
            ? (int) Math.min((long) fabric.dataQueuePackets() * workload.packetBytes(), TrTcmMeter.MAX_BURST_BYTES)
            : control.meterBurstBytes();
    }

    /**
     * The dataplane's view of the trim settings: with queues, a packet is trimmable when its queue trims; then the
     * Ultra Ethernet marks and the opt-out rules apply.
     */
    public TrimSettings trimSettings() {
        long noTrim = 0;
        for (final int dscp : trim.noTrimDscp()) {
            noTrim |= 1L << dscp;
        }
        final long[] fabric = new long[(portCount() * 2 + 63) / 64];
        for (final int port : trim.fabricPorts()) {
            fabric[port >> 6] |= 1L << port;
        }
        final TrimOptOut[] optOuts = new TrimOptOut[trim.disable().size()];
        for (int i = 0; i < optOuts.length; i++) {
            optOuts[i] = OptOutRules.parse("trim.disable[" + i + "]", trim.disable().get(i));
        }
        return classesAndTrimmability().with(trim.fabricDscp() == null ? trim.dscp() : trim.fabricDscp(), fabric, noTrim, optOuts)
            .withTrimmedQueue(qos.trimmedQueue() == null ? -1 : qos.trimmedQueue());
    }

    private TrimSettings classesAndTrimmability() {
        if (!qos.configured()) {
            long mask = 0;
            for (final int dscp : trim.trimmableDscp()) {
                mask |= 1L << dscp;
            }
            return new TrimSettings(trim.sizeBytes(), trim.dscp(), mask, trim.ndpUdpPort());
        }
        final byte[] queueOfDscp = new byte[64];
        int trimmingQueues = 0;
        for (int queue = 0; queue < qos.queues().size(); queue++) {
            if (qos.queues().get(queue).discard() == Discard.TRIM) {
                trimmingQueues |= 1 << queue;
            }
        }
        long mask = 0;
        for (int dscp = 0; dscp < 64; dscp++) {
            queueOfDscp[dscp] = (byte) queueOf(dscp);
            // A header already trimmed elsewhere travels as a header, not as a packet to trim again.
            if ((trimmingQueues >>> queueOfDscp[dscp] & 1) != 0 && dscp != trim.dscp() && !Integer.valueOf(dscp).equals(trim.fabricDscp())) {
                mask |= 1L << dscp;
            }
        }
        return new TrimSettings(trim.sizeBytes(), trim.dscp(), mask, trim.ndpUdpPort(), queueOfDscp, trimmingQueues);
    }

    /** The data queue of a DSCP's packets, through its traffic class; 0 without queues. */
    public int queueOf(final int dscp) {
        final int tc = qos.dscpToTc().getOrDefault(dscp, 0);
        return qos.tcToQueue().getOrDefault(tc, tc);
    }

    /** A port's data queues: one without {@code qos.queues()}. */
    public int dataQueueCount() {
        return qos.configured() ? qos.queues().size() : 1;
    }

    public int dataQueuePackets(final int queue) {
        return qos.configured() ? qos.queues().get(queue).packets() : fabric.dataQueuePackets();
    }

    /** The packets all of a port's data queues hold together. */
    public long dataQueuePacketsPerPort() {
        long total = 0;
        for (int queue = 0; queue < dataQueueCount(); queue++) {
            total += dataQueuePackets(queue);
        }
        return total;
    }
}
