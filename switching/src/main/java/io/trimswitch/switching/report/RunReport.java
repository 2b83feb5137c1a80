package io.trimswitch.switching.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.trimswitch.config.Settings;
import io.trimswitch.switching.record.RealTimeStats;

import java.util.List;
import java.util.Map;

/**
 * What one run reports (per flow, totals, pipelines, ports, header latency, conservation), in the JSON shape tools read. A virtual-time report is deterministic:
 * nothing in it depends on the host, so the same settings and seed give the same JSON. A real-time report
 * adds how the host kept up ({@code run.realTime}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunReport(
    String mechanism,
    String pattern,
    String transport,
    @JsonUnwrapped Totals totals,
    List<PipelineReport> pipelines,
    List<FlowReport> flows,
    List<PortReport> ports,
    Latency headerLatencyNs,
    double[] headerArrivalNs,
    RunInfo run,
    Settings config) implements Totalled {

    /**
     * What every report of a run states first, a lone switch's or a network's, with the same keys: the packets sent,
     * delivered whole or as headers and dropped, whether every one is accounted for, trims and drops by kind, goodput,
     * and the end hosts' flows and control packets.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Totals(
        long sent,
        long deliveredWhole,
        long deliveredHeader,
        long dropped,
        boolean conservation,
        Trims trims,
        Map<String, Long> drops,
        Goodput goodput,
        Integer flowsCompleted,
        Control control) {
    }

    /** Trims by where the packet was cut; {@code relativeToIdeal} is total / the ideal switch's total on the same workload. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Trims(long ingress, long dod, long mirror, long ideal, long total, Long idealReference, Double relativeToIdeal) {
        public Trims withIdeal(final long idealTotal) {
            return new Trims(ingress, dod, mirror, ideal, total, idealTotal,
                idealTotal == 0 ? (total == 0 ? 1.0 : null) : (double) total / idealTotal);
        }
    }

    /** NDP's ACK, NACK and PULL packets through the switch: conserved like data. */
    public record Control(long sent, long delivered, long dropped) {
    }

    /**
     * Flow goodput: open loop, payload of whole packets over the sender's blast duration; NDP, the flow's
     * payload over its completion time.
     */
    public record Goodput(double meanGbps, double minGbps, double maxGbps, double jainFairness) {
    }

    public record PipelineReport(
        int id, long dodDeflections, int maxDodQueue, long dodOverflows, long signals,
        long mirrored, int maxMirrorQueue, long mirrorOverflows) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FlowReport(
        int src, int dst, long sent, long whole, long headers, Map<String, Long> headersBy, long returnedToSender,
        long dropped, Map<String, Long> dropsBy, double goodputGbps, double lastArrivalNs,
        Integer size, Double completionNs, Long retransmissions) {
    }

    /** {@code utilisation}: the share of the run, until the switch went quiet, that the port spent transmitting. */
    /**
     * {@code queues}: with traffic classes, each data queue; otherwise left out. {@code untrimmableIpv6}: IPv6 packets
     * received whose transport sits behind an extension header the switch does not step over; left out when none.
     */
    public record PortReport(
        int id, long rxPackets, long txPackets, long txBytes, long trimPackets, long txTrimPackets, long droppedTrimPackets,
        int maxDataQueue, int maxHeaderQueue, double utilisation, List<StateTime> stateTimeNs,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<QueueReport> queues,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) long untrimmableIpv6) {
    }

    /**
     * One data queue of a port: packets queued, its deepest, and packets that met it full ({@code overflowed}): cut to
     * their header or deflected where {@code discard} is trim, dropped where it is drop.
     */
    public record QueueReport(int queue, String discard, long queued, int maxDepth, long overflowed) {
    }

    /** Time one pipeline held an egress port in each congested state. */
    public record StateTime(int pipeline, double pessimistic, double halftimistic, long notifications) {
    }

    public record Latency(long count, double mean, long p50, long p90, long p99, long max) {
    }

    /**
     * {@code clock}: virtual or real; {@code durationNs}: how long the run could last; {@code lastPacketNs}: when the last
     * packet left the switch (switch time); {@code realTime}: how the host kept up, for a real-time run.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RunInfo(
        String clock, double durationNs, double lastPacketNs, long events, long inFlightAtEnd, int leakedBuffers, RealTimeStats realTime) {
    }
}
