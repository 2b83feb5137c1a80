package io.trimswitch.network.run;

import io.trimswitch.network.NetworkReport;
import io.trimswitch.network.NetworkSettings;
import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimFlows;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.DropReason;
import io.trimswitch.dataplane.packet.TrimKind;
import io.trimswitch.dataplane.time.Picos;
import io.trimswitch.simulator.SwitchNode;
import io.trimswitch.simulator.TransportHosts;
import io.trimswitch.simulator.VirtualTimeEngine;
import io.trimswitch.switching.report.ReportBuilder;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.record.FlowLifetimes;
import io.trimswitch.switching.record.RunRecorder;
import io.trimswitch.switching.run.SwitchRun;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a finished network run into a {@link NetworkReport}. */
public final class NetworkReportBuilder {
    private NetworkReportBuilder() {
    }

    public static NetworkReport build(final NetworkRun network, final VirtualTimeEngine.Outcome outcome, final NetworkSettings settings) {
        return build(network, outcome, topology(settings), settings.routing().label(), settings);
    }

    /** An htsim experiment's report: the network's, with each flow's start, finish and completion time and the matrix's id. */
    public static HtsimReport build(final NetworkRun network, final VirtualTimeEngine.Outcome outcome, final HtsimExperiment experiment) {
        final NetworkReport report = build(network, outcome, experiment.describe(), experiment.getRouting(), null);
        final HtsimFlows matrixFlows = network.htsimFlows();
        final FlowLifetimes lifetimes = network.lifetimes();
        final List<HtsimReport.Flow> flows = new ArrayList<>();
        for (int flow = 0; flow < report.flows().size(); flow++) {
            final RunReport.FlowReport each = report.flows().get(flow);
            final long start = lifetimes.startPicos(flow);
            final long done = lifetimes.completionPicos(flow);
            final int id = matrixFlows.id(flow);
            flows.add(new HtsimReport.Flow(each.src(), each.dst(), id == 0 ? null : id, matrixFlows.bytes(flow), micros(start), micros(done),
                done < 0 || start < 0 ? null : micros(done - start), each.sent(), each.whole(), each.headers(), each.dropped(), each.retransmissions(),
                messages(matrixFlows, lifetimes, flow)));
        }
        return HtsimReport.of(report, flows, experiment, network.transportReport());
    }

    private static Double micros(final long picos) {
        return picos < 0 ? null : ReportBuilder.round(picos / 1e6, 3);
    }

    /** Each message of a connection, when its flows carry messages: queued, completed, and its completion time from its queuing. */
    private static List<HtsimReport.Message> messages(final HtsimFlows matrixFlows, final FlowLifetimes lifetimes, final int flow) {
        if (!matrixFlows.carriesMessages() || !(lifetimes instanceof TransportHosts hosts)) {
            return null;
        }
        final List<HtsimReport.Message> messages = new ArrayList<>();
        for (int m = 0; m < matrixFlows.messages(flow); m++) {
            final long queued = matrixFlows.messageStartPicos(flow, m);
            final long done = hosts.messageCompletionPicos(flow, m);
            messages.add(new HtsimReport.Message(matrixFlows.messageBytes(flow, m), micros(queued), micros(done),
                done < 0 || queued < 0 ? null : micros(done - queued)));
        }
        return messages;
    }

    private static NetworkReport build(final NetworkRun network, final VirtualTimeEngine.Outcome outcome, final String topology, final String routing,
        final NetworkSettings settings) {
        final RunRecorder recorder = network.recorder();
        final SwitchRun first = network.switchView(0);
        final double[] goodputs = new double[recorder.flows()];
        final List<RunReport.FlowReport> flows = ReportBuilder.flowReports(first, goodputs);
        final long sent = recorder.sentTotal();
        final long whole = recorder.wholeTotal();
        final long headers = recorder.headersTotal();
        final long dropped = recorder.droppedTotal();
        final Map<String, Long> drops = ReportBuilder.dropsByReason(recorder);
        final RunReport.Control control = new RunReport.Control(recorder.controlSentCount(), recorder.controlDeliveredCount(),
            recorder.controlDroppedCount());
        final boolean conserved = ReportBuilder.conserved(sent, whole, headers, dropped, drops, control, outcome.leakedBuffers());

        final long[] allTrims = new long[TrimKind.COUNT];
        final List<NetworkReport.SwitchReport> switches = new ArrayList<>();
        for (int sw = 0; sw < network.switches(); sw++) {
            switches.add(switchReport(network, sw, allTrims));
        }
        final List<NetworkReport.TierReport> tiers = new ArrayList<>();
        for (final String tier : network.tierNames()) {
            final List<NetworkReport.SwitchReport> members = switches.stream().filter(s -> s.tier().equals(tier)).toList();
            if (!members.isEmpty()) {
                tiers.add(tierReport(tier, members));
            }
        }
        final RunReport.Latency headerLatency = ReportBuilder.headerLatency(recorder);
        return new NetworkReport(topology, routing, network.hosts().description(), network.transport(), new RunReport.Totals(sent, whole, headers,
            dropped, conserved, trims(allTrims), drops, ReportBuilder.goodput(goodputs), network.lifetimes().completedFlows(), control),
            completion(network.lifetimes(), recorder.flows()), headerLatency, tiers, switches, flows,
            new RunReport.RunInfo(Settings.Clock.VIRTUAL.label(), Picos.toNanos(network.durationPicos()),
                Picos.toNanos(network.lastPacketPicos()), network.eventsHandled(), outcome.inFlightAtEnd(), outcome.leakedBuffers(), null),
            settings);
    }

    static String topology(final NetworkSettings settings) {
        final NetworkSettings.Topology t = settings.topology();
        final String rates = t.hostRateGbps() == t.uplinkRateGbps() ? plain(t.hostRateGbps()) + " Gb/s"
            : plain(t.hostRateGbps()) + " Gb/s hosts, " + plain(t.uplinkRateGbps()) + " Gb/s uplinks";
        final StringBuilder failures = new StringBuilder();
        for (final NetworkSettings.Link link : t.failedLinks()) {
            failures.append(failures.length() == 0 ? ", failed: " : ", ").append("leaf").append(link.leaf()).append("-spine").append(link.spine())
                .append(link.atUs() == 0 ? "" : " at " + plain(link.atUs()) + " µs");
        }
        return count(t.leaves(), "leaf", "leaves") + " × " + count(t.hostsPerLeaf(), "host", "hosts") + ", "
            + count(t.spines(), "spine", "spines") + ", " + rates + failures;
    }

    private static String count(final int count, final String one, final String many) {
        return count + " " + (count == 1 ? one : many);
    }

    private static String plain(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static NetworkReport.SwitchReport switchReport(final NetworkRun network, final int sw, final long[] allTrims) {
        final SwitchNode node = network.node(sw);
        final long[] trims = new long[TrimKind.COUNT];
        final List<RunReport.PortReport> ports = ReportBuilder.portReports(network.switchView(sw), trims);
        for (int kind = 0; kind < TrimKind.COUNT; kind++) {
            allTrims[kind] += trims[kind];
        }
        final Map<String, Long> drops = new LinkedHashMap<>();
        for (final DropReason reason : DropReason.values()) {
            if (node.drops(reason) > 0) {
                drops.put(reason.label(), node.drops(reason));
            }
        }
        final Map<Integer, String> links = new LinkedHashMap<>();
        for (int port = 0; port < node.assembly().ports(); port++) {
            final String attached = network.attached(sw, port);
            if (attached != null) {
                links.put(port, attached);
            }
        }
        return new NetworkReport.SwitchReport(node.name(), node.tier(), node.settings().mechanism().label(), trims(trims), drops,
            ReportBuilder.pipelineReports(node.assembly()), ports, links);
    }

    private static NetworkReport.TierReport tierReport(final String tier, final List<NetworkReport.SwitchReport> members) {
        final long[] trims = new long[TrimKind.COUNT];
        final Map<String, Long> drops = new LinkedHashMap<>();
        long deflections = 0;
        int maxDod = 0;
        int maxData = 0;
        int maxHeader = 0;
        double busiest = 0;
        for (final NetworkReport.SwitchReport member : members) {
            trims[TrimKind.INGRESS] += member.trims().ingress();
            trims[TrimKind.DOD] += member.trims().dod();
            trims[TrimKind.MIRROR] += member.trims().mirror();
            trims[TrimKind.IDEAL] += member.trims().ideal();
            member.drops().forEach((reason, count) -> drops.merge(reason, count, Long::sum));
            for (final RunReport.PipelineReport pipeline : member.pipelines()) {
                deflections += pipeline.dodDeflections();
                maxDod = Math.max(maxDod, pipeline.maxDodQueue());
            }
            for (final RunReport.PortReport port : member.ports()) {
                maxData = Math.max(maxData, port.maxDataQueue());
                maxHeader = Math.max(maxHeader, port.maxHeaderQueue());
                busiest = Math.max(busiest, port.utilisation());
            }
        }
        return new NetworkReport.TierReport(tier, members.get(0).mechanism(), members.size(), trims(trims), drops, deflections, maxDod,
            maxData, maxHeader, busiest);
    }

    private static RunReport.Trims trims(final long[] trims) {
        return new RunReport.Trims(trims[TrimKind.INGRESS], trims[TrimKind.DOD], trims[TrimKind.MIRROR], trims[TrimKind.IDEAL],
            Arrays.stream(trims).sum(), null, null);
    }

    /** Completion times (µs) of the flows that completed, nearest-rank percentiles. */
    private static NetworkReport.Completion completion(final FlowLifetimes lifetimes, final int flows) {
        final double[] times = new double[flows];
        int count = 0;
        for (int flow = 0; flow < flows; flow++) {
            final long done = lifetimes.completionPicos(flow);
            if (done >= 0) {
                times[count++] = (done - lifetimes.startPicos(flow)) / 1e6;
            }
        }
        final double[] done = Arrays.copyOf(times, count);
        Arrays.sort(done);
        final double mean = count == 0 ? 0 : Arrays.stream(done).sum() / count;
        return new NetworkReport.Completion(count, flows - count, ReportBuilder.round(mean, 3), percentile(done, 50),
            percentile(done, 90), percentile(done, 99), count == 0 ? 0 : ReportBuilder.round(done[count - 1], 3));
    }

    static double percentile(final double[] sorted, final double percent) {
        if (sorted.length == 0) {
            return 0;
        }
        final int rank = (int) Math.ceil(percent / 100 * sorted.length);
        return ReportBuilder.round(sorted[Math.max(0, rank - 1)], 3);
    }
}
