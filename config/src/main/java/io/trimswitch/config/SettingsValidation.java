package io.trimswitch.config;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.pipelines.TrTcmMeter;

import java.util.List;

/** The checks that keep impossible switches from starting; each failure names the setting. */
public final class SettingsValidation {
    private SettingsValidation() {
    }

    /** Rates, Gb/s: from a megabit to ten terabits. */
    static final double MIN_RATE_GBPS = 0.001;
    static final double MAX_RATE_GBPS = 10_000;
    /** Packets any one queue may hold, and all of them together (every packet has a buffer). */
    private static final long MAX_QUEUE_PACKETS = 1 << 20;
    private static final long MAX_TOTAL_PACKETS = 1 << 24;
    /** Data queues per port, as in SAI. */
    private static final int MAX_QUEUES = 8;

    static Settings validate(final Settings s) {
        validateFabric(s);
        validateQos(s);
        validateRecirculation(s);
        // The workload's frame size first: the meters' default bucket is derived from it.
        within("workload.packetBytes", s.workload().packetBytes(), TrimSettings.NDP_HEADERS, PacketPool.JUMBO_FRAME_BYTES);
        validateTrim(s);
        validateControl(s);
        validateWorkload(s);
        validateTransport(s);
        validateRealTime(s);
        if (s.ndp() && s.workload().packets() > 65_535) {
            throw new ConfigException("workload.packets must be at most 65535 with NDP (its sequence numbers are 16 bits), got " + s.workload().packets());
        }
        if (s.uet() && s.workload().packets() > 65_535) {
            throw new ConfigException("workload.packets must be at most 65535 with UET (its sequence numbers travel in 16 bits here), got "
                + s.workload().packets());
        }
        return s;
    }

    /** Pipelines, ports, their rate and queues. */
    private static void validateFabric(final Settings s) {
        atLeast("fabric.pipelines", s.fabric().pipelines(), 1);
        atMost("fabric.pipelines", s.fabric().pipelines(), 256);
        atLeast("fabric.portsPerPipeline", s.fabric().portsPerPipeline(), 1);
        atMost("fabric ports (pipelines × portsPerPipeline)", (long) s.fabric().pipelines() * s.fabric().portsPerPipeline(), 4096);
        rate("fabric.portRateGbps", s.fabric().portRateGbps());
        within("fabric.dataQueuePackets", s.fabric().dataQueuePackets(), 1, MAX_QUEUE_PACKETS);
        within("fabric.headerQueuePackets", s.fabric().headerQueuePackets(), 1, MAX_QUEUE_PACKETS);
        within("fabric.headersPerData", s.fabric().headersPerData(), 0, MAX_QUEUE_PACKETS);
    }

    /** Traffic classes: every DSCP reaches a queue that exists, through a class that exists. */
    private static void validateQos(final Settings s) {
        final Settings.Qos qos = s.qos();
        if (!qos.configured()) {
            if (!qos.dscpToTc().isEmpty() || !qos.tcToQueue().isEmpty() || qos.trimmedQueue() != null) {
                throw new ConfigException("qos.dscpToTc, qos.tcToQueue and qos.trimmedQueue name queues: list them in qos.queues");
            }
            return;
        }
        atMost("qos.queues (queues per port)", qos.queues().size(), MAX_QUEUES);
        for (int i = 0; i < qos.queues().size(); i++) {
            final Settings.Queue queue = qos.queues().get(i);
            within("qos.queues[" + i + "].packets", queue.packets(), 1, MAX_QUEUE_PACKETS);
            within("qos.queues[" + i + "].weight", queue.weight(), 1, 1000);
        }
        qos.dscpToTc().forEach((dscp, tc) -> {
            within("qos.dscpToTc key (a DSCP)", dscp, 0, 63);
            within("qos.dscpToTc[" + dscp + "] (a traffic class)", tc, 0, MAX_QUEUES - 1);
        });
        qos.tcToQueue().forEach((tc, queue) -> {
            within("qos.tcToQueue key (a traffic class)", tc, 0, MAX_QUEUES - 1);
            within("qos.tcToQueue[" + tc + "] (a queue)", queue, 0, qos.queues().size() - 1);
        });
        if (qos.trimmedQueue() != null) {
            within("qos.trimmedQueue", qos.trimmedQueue(), 0, qos.queues().size() - 1);
        }
        for (int dscp = 0; dscp < 64; dscp++) {
            final int tc = qos.dscpToTc().getOrDefault(dscp, 0);
            if (s.queueOf(dscp) >= qos.queues().size()) {
                throw new ConfigException("DSCP " + dscp + " is in traffic class " + tc + ", which goes to queue " + s.queueOf(dscp)
                    + ", but qos.queues has " + qos.queues().size() + ": map the class in qos.tcToQueue");
            }
        }
        if (!s.trim().trimmableDscp().equals(List.of(10))) {
            throw new ConfigException("trim.trimmableDscp does not apply with qos.queues: the packets of a queue with discard: trim are the trimmable ones");
        }
    }

    /** Recirculation ports, and what all the queues together may hold. */
    private static void validateRecirculation(final Settings s) {
        rate("recirculation.rateGbps", s.recirculation().rateGbps());
        within("recirculation.latencyNs", s.recirculation().latencyNs(), 0, 1e9, "ns");
        within("recirculation.dodQueuePackets", s.recirculation().dodQueuePackets(), 1, MAX_QUEUE_PACKETS);
        within("recirculation.mirrorQueuePackets", s.recirculation().mirrorQueuePackets(), 1, MAX_QUEUE_PACKETS);
        final long queued = (long) s.egressPorts() * (s.dataQueuePacketsPerPort() + s.fabric().headerQueuePackets())
            + (long) s.recirculationPorts() * Math.max(s.recirculation().dodQueuePackets(), s.recirculation().mirrorQueuePackets());
        if (queued > MAX_TOTAL_PACKETS) {
            throw new ConfigException("the queues together would hold " + queued + " packets, more than the " + MAX_TOTAL_PACKETS
                + " a switch may buffer: make fabric.dataQueuePackets, fabric.headerQueuePackets or recirculation.dodQueuePackets smaller");
        }
    }

    /** What a trimmed packet keeps and how it is marked; which packets are trimmable. */
    private static void validateTrim(final Settings s) {
        for (final int dscp : s.trim().trimmableDscp()) {
            if (dscp < 0 || dscp > 63) {
                throw new ConfigException("trim.trimmableDscp values must be 0..63, got " + dscp);
            }
        }
        within("trim.sizeBytes", s.trim().sizeBytes(), TrimSettings.NDP_HEADERS, PacketPool.SLOT_BYTES);
        within("trim.dscp", s.trim().dscp(), 0, 63);
        within("trim.ndpUdpPort", s.trim().ndpUdpPort(), 1, 65535);
        if (s.trim().fabricDscp() != null) {
            within("trim.fabricDscp", s.trim().fabricDscp(), 0, 63);
        }
        for (final int port : s.trim().fabricPorts()) {
            within("trim.fabricPorts values", port, 0, s.portCount() - 1);
        }
        for (final int dscp : s.trim().noTrimDscp()) {
            within("trim.noTrimDscp values", dscp, 0, 63);
            if (!s.qos().configured() && s.trim().trimmableDscp().contains(dscp)) {
                throw new ConfigException("trim.noTrimDscp " + dscp + " is also in trim.trimmableDscp: a DSCP cannot be both");
            }
        }
        try {
            s.trimSettings();
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("trim: " + e.getMessage());
        }
    }

    /** The trim control loop: T0/T1, the meter profile and rates, the NOTIFY scope and trigger. */
    private static void validateControl(final Settings s) {
        within("control.t0Us", s.control().t0Us(), 0, 1e6, "µs");
        within("control.t1Us", s.control().t1Us(), 0, 1e6, "µs");
        if (s.control().halftimistic() && !(s.control().t1Us() >= s.control().t0Us())) {
            throw new ConfigException("control.t1Us (" + s.control().t1Us() + ") must not be below control.t0Us (" + s.control().t0Us() + ")");
        }
        within("control.signalBacklog", s.control().signalBacklog(), 0, MAX_QUEUE_PACKETS);
        if (s.control().depthThresholdPackets() != null) {
            within("control.depthThresholdPackets", s.control().depthThresholdPackets(), 1, MAX_QUEUE_PACKETS);
        }
        within("control.staleStages", s.control().staleStages(), 0, 64);
        if (s.control().loop() == Settings.Loop.BACKLOG && !s.mechanism().drivesNotifyLoop()) {
            throw new ConfigException("control.loop backlog needs mechanism tofino, the one whose NOTIFYs drive a loop; got " + s.mechanism().label());
        }
        // A rate is checked as written: NaN would round to a rate of 0 and trim everything.
        if (s.control().halftimisticRateGbps() != null) {
            within("control.halftimisticRateGbps", s.control().halftimisticRateGbps(), 0, s.fabric().portRateGbps(), "Gb/s");
        }
        if (s.control().pessimisticRateGbps() != null) {
            within("control.pessimisticRateGbps", s.control().pessimisticRateGbps(), 0, s.fabric().portRateGbps(), "Gb/s");
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

    /** The open-loop senders' packets and run length; the pattern is read where the traffic is made, on the fabric's ports. */
    private static void validateWorkload(final Settings s) {
        within("workload.packets", s.workload().packets(), 1, 1_000_000);
        positive("workload.durationUs", s.workload().durationUs());
        if (s.workload().durationUs() > 1_000_000) {
            throw new ConfigException("workload.durationUs must be at most 1000000 (one second of switch time), got " + s.workload().durationUs());
        }
    }

    /** NDP end hosts and background traffic. */
    private static void validateTransport(final Settings s) {
        within("transport.initialWindowPackets", s.transport().initialWindowPackets(), 1, MAX_QUEUE_PACKETS);
        within("transport.propagationNs", s.transport().propagationNs(), 0, 1e9, "ns");
        within("transport.rtoUs", s.transport().rtoUs(), 0.001, 1e7, "µs");
        positive("transport.maxDurationUs", s.transport().maxDurationUs());
        if (s.transport().maxDurationUs() > 8_000_000) {
            throw new ConfigException("transport.maxDurationUs must be at most 8000000 (eight seconds of switch time), got " + s.transport().maxDurationUs());
        }
        flowSizesFile("transport.flowSizes", s.transport().flowSizes());
        if (!(s.transport().backgroundLoad() >= 0 && s.transport().backgroundLoad() < 1)) {
            throw new ConfigException("transport.backgroundLoad must be a fraction of line rate in [0, 1), got " + s.transport().backgroundLoad());
        }
        within("transport.backgroundUs", s.transport().backgroundUs(), 0, s.transport().maxDurationUs(), "µs");
        if (s.transport().backgroundLoad() > 0 && !s.ndp() && !s.uet()) {
            throw new ConfigException("transport.backgroundLoad needs transport.kind ndp or uet: open-loop senders have no background flows");
        }
    }

    private static void validateRealTime(final Settings s) {
        if (!(s.realtime().dilation() >= 1) || !(s.realtime().dilation() <= 1e6)) {
            throw new ConfigException("realtime.dilation must be 1..1000000 (1 runs the switch at its own speed), got " + s.realtime().dilation());
        }
        atLeast("realtime.batchPackets", s.realtime().batchPackets(), 1);
        atMost("realtime.batchPackets", s.realtime().batchPackets(), 4096);
        atLeast("realtime.rxRingPackets", s.realtime().rxRingPackets(), 1);
        atMost("realtime.rxRingPackets", s.realtime().rxRingPackets(), 1 << 20);
        within("realtime.pollAfterTrafficUs", s.realtime().pollAfterTrafficUs(), 0, 1_000_000);
        atLeast("realtime.pipelineThreads", s.realtime().pipelineThreads(), 1);
        atMost("realtime.pipelineThreads", s.realtime().pipelineThreads(), s.fabric().pipelines());
        final Settings.RealTime byName = s.realtime().withPipelineThreads(1);
        if (s.realtime().pipelineThreads() != 1 && s.realtime().placement() != Settings.Placement.SINGLE
            && byName.shards(s.fabric().pipelines()) != s.realtime().pipelineThreads()) {
            throw new ConfigException("realtime.placement (" + s.realtime().placement().label() + ": " + byName.shards(s.fabric().pipelines())
                + " shards) and realtime.pipelineThreads (" + s.realtime().pipelineThreads() + ") are one setting and disagree: give one of them");
        }
        if (!s.realTime()) {
            return;
        }
        if (s.mechanism().virtualOnly() != null) {
            throw new ConfigException(s.mechanism().virtualOnly());
        }
        if (s.control().loop() == Settings.Loop.BACKLOG) {
            throw new ConfigException("control.loop backlog runs only with clock virtual");
        }
        if (s.ndp()) {
            throw new ConfigException("clock real runs open-loop senders; NDP end hosts run only with clock virtual (set transport.kind open-loop)");
        }
        if (s.uet()) {
            throw new ConfigException("clock real runs open-loop senders; UET end hosts run only with clock virtual (set transport.kind open-loop)");
        }
    }

    private static void atLeast(final String name, final long value, final long min) {
        if (value < min) {
            throw new ConfigException(name + " must be at least " + min + ", got " + value);
        }
    }

    private static void atMost(final String name, final long value, final long max) {
        if (value > max) {
            throw new ConfigException(name + " must be at most " + max + ", got " + value);
        }
    }

    public static void within(final String name, final long value, final long min, final long max) {
        if (value < min || value > max) {
            throw new ConfigException(name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /** Finite and in [min, max]: NaN and infinity are refused like any value out of range. */
    public static void within(final String name, final double value, final double min, final double max, final String unit) {
        if (!(value >= min && value <= max)) {
            throw new ConfigException(name + " must be " + plain(min) + ".." + plain(max) + " " + unit + ", got " + value);
        }
    }

    public static void rate(final String name, final double gbps) {
        within(name, gbps, MIN_RATE_GBPS, MAX_RATE_GBPS, "Gb/s");
    }

    private static String plain(final double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    private static void positive(final String name, final double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new ConfigException(name + " must be positive, got " + value);
        }
    }

    /** A file of flow sizes, where one is named (null: every flow has the workload's size). */
    public static void flowSizesFile(final String name, final String file) {
        if (file != null && file.isBlank()) {
            throw new ConfigException(name + " must name a CSV file of flow sizes, got '" + file + "'");
        }
    }

    public static void oneOf(final String name, final String value, final String... allowed) {
        for (final String candidate : allowed) {
            if (candidate.equals(value)) {
                return;
            }
        }
        throw new ConfigException(name + " must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
    }
}
