package io.trimswitch.network;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.report.Totalled;

import java.util.List;
import java.util.Map;

/**
 * What a network's run reports: the totals with the same keys as a lone switch's report, flow completion times, then
 * per tier, per switch (with its pipelines and ports as a lone switch reports them) and per flow. Deterministic: the
 * same settings give the same JSON.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NetworkReport(
    String topology,
    String routing,
    String pattern,
    String transport,
    @JsonUnwrapped RunReport.Totals totals,
    Completion completionUs,
    RunReport.Latency headerLatencyNs,
    List<TierReport> tiers,
    List<SwitchReport> switches,
    List<RunReport.FlowReport> flows,
    RunReport.RunInfo run,
    NetworkSettings config) implements Totalled {

    /** Flow completion times of the flows that completed, in microseconds; {@code incomplete}: flows that did not. */
    public record Completion(int count, int incomplete, double mean, double p50, double p90, double p99, double max) {
    }

    /** A tier's switches together: what they trimmed and dropped, their deepest queues and their busiest port. */
    public record TierReport(String tier, String mechanism, int switches, RunReport.Trims trims, Map<String, Long> drops,
        long dodDeflections, int maxDodQueue, int maxDataQueue, int maxHeaderQueue, double maxUtilisation) {
    }

    /** One switch: as a lone switch reports its trims, pipelines and ports, and what each port is cabled to. */
    public record SwitchReport(String name, String tier, String mechanism, RunReport.Trims trims, Map<String, Long> drops,
        List<RunReport.PipelineReport> pipelines, List<RunReport.PortReport> ports, Map<Integer, String> links) {
    }
}
