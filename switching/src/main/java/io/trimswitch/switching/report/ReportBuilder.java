package io.trimswitch.switching.report;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.pipelines.TrimStateTable;
import io.trimswitch.recirc.RecirculationPort;
import io.trimswitch.switching.run.RunOutcome;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.AssembledSwitch;
import io.trimswitch.switching.source.TrafficSource;
import io.trimswitch.switching.run.SwitchRun;
import io.trimswitch.trafficmanager.DeflectOnDrop;
import io.trimswitch.trafficmanager.EgressPort;
import io.trimswitch.trafficmanager.HandleQueue;
import io.trimswitch.trafficmanager.PortCounters;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a finished run's counters into a {@link RunReport}. */
public final class ReportBuilder {
    private ReportBuilder() {
    }

    public static RunReport build(final RunOutcome outcome) {
        final SwitchRun sw = outcome.source();
        final AssembledSwitch assembly = sw.assembly();
        final RunRecorder recorder = sw.recorder();
        final TrafficSource source = sw.source();
        final FlowLifetimes lifetimes = sw.flowLifetimes();

        final double[] goodputs = new double[recorder.flows()];
        final List<RunReport.FlowReport> flows = flowReports(sw, goodputs);
        final long sent = recorder.sentTotal();
        final long whole = recorder.wholeTotal();
        final long headers = recorder.headersTotal();
        final long dropped = recorder.droppedTotal();
        final Map<String, Long> drops = dropsByReason(recorder);
        final long[] trims = new long[TrimKind.COUNT];
        final List<RunReport.PortReport> ports = portReports(sw, trims);
        long totalTrims = 0;
        for (final long count : trims) {
            totalTrims += count;
        }
        final List<RunReport.PipelineReport> pipelines = pipelineReports(assembly);
        final RunReport.Latency headerLatency = headerLatency(recorder);
        final long[] arrivals = recorder.headerArrivalsSorted();
        final double[] arrivalNanos = new double[arrivals.length];
        for (int i = 0; i < arrivals.length; i++) {
            arrivalNanos[i] = Picos.toNanos(arrivals[i]);
        }

        final RunReport.Control control = lifetimes == null ? null
            : new RunReport.Control(recorder.controlSentCount(), recorder.controlDeliveredCount(), recorder.controlDroppedCount());
        final boolean conserved = conserved(sent, whole, headers, dropped, drops, control, outcome.leakedBuffers());
        return new RunReport(sw.mechanism().label(), source.description(), sw.transport(), new RunReport.Totals(sent, whole, headers, dropped, conserved,
            new RunReport.Trims(trims[TrimKind.INGRESS], trims[TrimKind.DOD], trims[TrimKind.MIRROR], trims[TrimKind.IDEAL],
                totalTrims, null, null),
            drops, goodput(goodputs), lifetimes == null ? null : lifetimes.completedFlows(), control),
            pipelines, flows, ports, headerLatency, arrivalNanos,
            new RunReport.RunInfo(sw.settings().clock().label(), Picos.toNanos(sw.durationPicos()), Picos.toNanos(sw.lastPacketPicos()), sw.eventsHandled(),
                outcome.inFlightAtEnd(), outcome.leakedBuffers(), sw.realTimeStats()),
            sw.settings());
    }

    /** Per flow: what it sent, how it arrived, what was dropped and why; each flow's goodput into {@code goodputs}. */
    public static List<RunReport.FlowReport> flowReports(final SwitchRun sw, final double[] goodputs) {
        final RunRecorder recorder = sw.recorder();
        final int packetBytes = sw.settings().workload().packetBytes();
        final int payloadBytes = packetBytes - Math.min(packetBytes, sw.settings().trim().sizeBytes());
        final TrafficSource source = sw.source();
        final FlowLifetimes lifetimes = sw.flowLifetimes();
        final List<RunReport.FlowReport> flows = new ArrayList<>();
        for (int flow = 0; flow < recorder.flows(); flow++) {
            final Map<String, Long> headersBy = new LinkedHashMap<>();
            for (int kind = 1; kind < TrimKind.COUNT; kind++) {
                if (recorder.headersOf(flow, kind) > 0) {
                    headersBy.put(TrimKind.name(kind), recorder.headersOf(flow, kind));
                }
            }
            final Map<String, Long> dropsBy = new LinkedHashMap<>();
            for (final DropReason reason : DropReason.values()) {
                if (recorder.droppedOf(flow, reason) > 0) {
                    dropsBy.put(reason.label(), recorder.droppedOf(flow, reason));
                }
            }
            final long sending = source.sendingPicos(flow);
            // NDP counts each of the flow's packets once (a duplicate adds nothing); open loop, every whole delivery.
            final long payloadPackets = lifetimes != null ? lifetimes.size(flow) : recorder.wholeOf(flow);
            goodputs[flow] = sending == 0 ? 0 : payloadPackets * payloadBytes * 8.0 / sending * 1000.0;
            final long completion = lifetimes == null ? -1 : lifetimes.completionPicos(flow);
            flows.add(new RunReport.FlowReport(source.flowSource(flow), source.flowDestination(flow),
                recorder.sentBy(flow), recorder.wholeOf(flow), recorder.headersOf(flow), headersBy, recorder.returnedOf(flow),
                recorder.droppedOf(flow), dropsBy, round(goodputs[flow], 3), Picos.toNanos(recorder.lastArrivalOf(flow)),
                lifetimes == null ? null : lifetimes.size(flow),
                lifetimes == null || completion < 0 ? null : Picos.toNanos(completion - lifetimes.startPicos(flow)),
                lifetimes == null ? null : lifetimes.retransmissions(flow)));
        }
        return flows;
    }

    /**
     * Packet conservation: every data packet sent was delivered whole, as a header or dropped, every drop has its
     * reason, no buffer leaked, and every control packet ({@code control}, null without end hosts) is accounted for.
     */
    public static boolean conserved(
        final long sent, final long whole, final long headers, final long dropped, final Map<String, Long> drops,
        final RunReport.Control control, final long leakedBuffers) {
        long attributed = 0;
        for (final long count : drops.values()) {
            attributed += count;
        }
        return sent == whole + headers + dropped && attributed == dropped && leakedBuffers == 0
            && (control == null || control.sent() == control.delivered() + control.dropped());
    }

    /** Every drop by reason, the flows' and those no flow owns. */
    public static Map<String, Long> dropsByReason(final RunRecorder recorder) {
        final Map<String, Long> drops = new LinkedHashMap<>();
        for (final DropReason reason : DropReason.values()) {
            long count = recorder.unattributedDrops(reason);
            for (int flow = 0; flow < recorder.flows(); flow++) {
                count += recorder.droppedOf(flow, reason);
            }
            if (count > 0) {
                drops.put(reason.label(), count);
            }
        }
        return drops;
    }

    /** Each port that saw traffic; every port's trims, by kind, added into {@code trims}. */
    public static List<RunReport.PortReport> portReports(final SwitchRun sw, final long[] trims) {
        final AssembledSwitch assembly = sw.assembly();
        final List<RunReport.PortReport> ports = new ArrayList<>();
        for (int id = 0; id < assembly.ports(); id++) {
            final EgressPort port = assembly.port(id);
            final PortCounters counters = port.counters();
            for (int kind = 0; kind < TrimKind.COUNT; kind++) {
                trims[kind] += counters.trimPackets(kind);
            }
            if (counters.rxPackets() == 0 && counters.txPackets() == 0 && counters.trimPacketsTotal() == 0) {
                continue;
            }
            final List<RunReport.StateTime> states = new ArrayList<>();
            for (int pipeline = 0; pipeline < assembly.pipelines(); pipeline++) {
                final TrimStateTable table = assembly.pipeline(pipeline).trimStates();
                if (table.notifications(id) > 0) {
                    states.add(new RunReport.StateTime(pipeline,
                        Picos.toNanos(table.pessimisticTime(id, sw.durationPicos())),
                        Picos.toNanos(table.halftimisticTime(id, sw.durationPicos())), table.notifications(id)));
                }
            }
            final double busy = counters.txBytes() * 8.0 * 1e12 / port.rate().bitsPerSecond();
            ports.add(new RunReport.PortReport(id, counters.rxPackets(), counters.txPackets(), counters.txBytes(),
                counters.trimPacketsTotal(), counters.txTrimPackets(), counters.droppedTrimPackets(),
                port.dataQueue().maxDepth(), port.headerQueue().maxDepth(), round(busy / Math.max(1, sw.lastPacketPicos()), 4), states,
                queueReports(sw.settings(), port), counters.untrimmableIpv6()));
        }
        return ports;
    }

    /** With traffic classes, what each of the port's data queues did; null without. */
    private static List<RunReport.QueueReport> queueReports(final Settings settings, final EgressPort port) {
        if (!settings.qos().configured()) {
            return null;
        }
        final List<RunReport.QueueReport> queues = new ArrayList<>();
        for (int queue = 0; queue < port.dataQueueCount(); queue++) {
            final HandleQueue data = port.dataQueue(queue);
            queues.add(new RunReport.QueueReport(queue, settings.qos().queues().get(queue).discard().label(), data.enqueued(), data.maxDepth(),
                data.rejected()));
        }
        return queues;
    }

    /** Per pipeline: its recirculation port's deflections or mirrors, depth, overflows and signals. */
    public static List<RunReport.PipelineReport> pipelineReports(final AssembledSwitch assembly) {
        final List<RunReport.PipelineReport> pipelines = new ArrayList<>();
        for (int pipeline = 0; pipeline < assembly.recirculationPorts(); pipeline++) {
            final RecirculationPort recirculation = assembly.recirculation(pipeline);
            final HandleQueue queue = recirculation == null ? null : recirculation.queue();
            final boolean deflecting = assembly.trafficManager().overflow() instanceof DeflectOnDrop;
            final long signals = assembly.signals() == null ? 0 : assembly.signals().raised(pipeline);
            if (queue != null && deflecting) {
                pipelines.add(new RunReport.PipelineReport(pipeline, queue.enqueued() + queue.rejected(), queue.maxDepth(),
                    queue.rejected(), signals, 0, 0, 0));
            } else if (queue != null) {
                pipelines.add(new RunReport.PipelineReport(pipeline, 0, 0, 0, signals,
                    queue.enqueued() + queue.rejected(), queue.maxDepth(), queue.rejected()));
            } else {
                pipelines.add(new RunReport.PipelineReport(pipeline, 0, 0, 0, 0, 0, 0, 0));
            }
        }
        return pipelines;
    }

    public static RunReport.Latency headerLatency(final RunRecorder recorder) {
        final Histogram latency = recorder.headerLatencyNanos();
        return new RunReport.Latency(latency.getTotalCount(),
            round(latency.getTotalCount() == 0 ? 0 : latency.getMean(), 1),
            latency.getValueAtPercentile(50), latency.getValueAtPercentile(90), latency.getValueAtPercentile(99), latency.getMaxValue());
    }

    /** The same report with its trims set against the ideal switch's on the same workload. */
    public static RunReport withIdealReference(final RunReport report, final long idealTrims) {
        final RunReport.Totals totals = report.totals();
        return new RunReport(report.mechanism(), report.pattern(), report.transport(), new RunReport.Totals(totals.sent(), totals.deliveredWhole(),
            totals.deliveredHeader(), totals.dropped(), totals.conservation(), totals.trims().withIdeal(idealTrims), totals.drops(),
            totals.goodput(), totals.flowsCompleted(), totals.control()), report.pipelines(), report.flows(), report.ports(), report.headerLatencyNs(), report.headerArrivalNs(), report.run(),
            report.config());
    }

    /** The same report without its header arrival times (they are large; sweeps do not need them). */
    public static RunReport withoutArrivals(final RunReport report) {
        return new RunReport(report.mechanism(), report.pattern(), report.transport(), report.totals(), report.pipelines(), report.flows(), report.ports(), report.headerLatencyNs(), null, report.run(),
            report.config());
    }

    public static RunReport.Goodput goodput(final double[] goodputs) {
        if (goodputs.length == 0) {
            return new RunReport.Goodput(0, 0, 0, 1);
        }
        double sum = 0;
        double squares = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (final double value : goodputs) {
            sum += value;
            squares += value * value;
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        final double jain = squares == 0 ? 1 : sum * sum / (goodputs.length * squares);
        return new RunReport.Goodput(round(sum / goodputs.length, 3), round(min, 3), round(max, 3), round(jain, 4));
    }

    public static double round(final double value, final int digits) {
        final double scale = Math.pow(10, digits);
        return Math.round(value * scale) / scale;
    }
}
