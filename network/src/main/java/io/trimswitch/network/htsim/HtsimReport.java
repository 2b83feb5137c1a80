package io.trimswitch.network.htsim;

import io.trimswitch.network.NetworkReport;
import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.trimswitch.switching.report.RunReport;
import io.trimswitch.switching.report.Totalled;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * What an htsim experiment's run reports: a network's report, whose flows also give each one's start, finish and
 * completion time in µs (as htsim's "finished at" lines do) and the matrix's id, and whose settings are the experiment's.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(value = "unfinished", allowGetters = true)
public record HtsimReport(
    String topology,
    String routing,
    String pattern,
    String transport,
    @JsonUnwrapped RunReport.Totals totals,
    NetworkReport.Completion completionUs,
    RunReport.Latency headerLatencyNs,
    List<NetworkReport.TierReport> tiers,
    List<NetworkReport.SwitchReport> switches,
    List<Flow> flows,
    RunReport.RunInfo run,
    HtsimExperiment config,
    @JsonIgnore Map<String, JsonNode> sections) implements Totalled {

    /** Reads the JSON's transport sections back (keys beside the report's own). */
    public HtsimReport {
        sections = sections == null ? new TransportSections() : sections;
    }

    /** The hosts' transport's section of the report, under its name ("uet"), when it writes one. */
    @JsonAnyGetter
    Map<String, JsonNode> transportSections() {
        return sections;
    }

    @JsonAnySetter
    void section(final String name, final JsonNode value) {
        sections.put(name, value);
    }

    /** The section of transport {@code name}, or null. */
    public JsonNode section(final String name) {
        return sections.get(name);
    }

    /**
     * One line of the matrix, or with connection reuse one connection and its {@code messages}: {@code startUs} and
     * {@code finishUs} from time zero, {@code fctUs} the difference; absent if it never started or finished.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Flow(int src, int dst, Integer id, long sizeBytes, Double startUs, Double finishUs, Double fctUs, long sent, long whole,
        long headers, long dropped, Long retransmissions, List<Message> messages) {
    }

    /** A message on a connection, in the order it was sent: queued at {@code startUs}, every packet acknowledged at {@code finishUs}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Message(long sizeBytes, Double startUs, Double finishUs, Double fctUs) {
    }

    public static HtsimReport of(final NetworkReport r, final List<Flow> flows, final HtsimExperiment experiment, final Object section) {
        final TransportSections sections = new TransportSections();
        if (section != null) {
            sections.keep(r.transport(), section);
        }
        return new HtsimReport(r.topology(), r.routing(), r.pattern(), r.transport(), r.totals(), r.completionUs(), r.headerLatencyNs(), r.tiers(),
            r.switches(), flows, r.run(), experiment, sections);
    }

    /** The flows that had not finished when the run ended (htsim's -end), listed as well as counted; absent when all did. */
    @JsonProperty("unfinished")
    public List<Flow> unfinished() {
        final List<Flow> left = flows.stream().filter(f -> f.finishUs() == null).toList();
        return left.isEmpty() ? null : left;
    }

    /** A line for each unfinished flow, after the text table; empty when every flow finished. */
    public String unfinishedText() {
        final List<Flow> left = unfinished();
        if (left == null) {
            return "";
        }
        final StringBuilder out = new StringBuilder(String.format("%nunfinished at %.1f µs    %d of %d flows%n", config.getMaxDurationUs(), left.size(),
            flows.size()));
        for (final Flow f : left) {
            out.append(String.format("  %d->%d%s  %d bytes, %s, %d packets arrived whole%n", f.src(), f.dst(), f.id() == null ? "" : " id " + f.id(),
                f.sizeBytes(), f.startUs() == null ? "never started" : String.format("started at %.1f µs", f.startUs()), f.whole()));
        }
        return out.toString();
    }

    /** With connection reuse, a line that counts the messages completed and gives their completion times; empty without. */
    public String messagesText() {
        final List<Double> done = flows.stream().filter(f -> f.messages() != null).flatMap(f -> f.messages().stream()).map(Message::fctUs)
            .filter(java.util.Objects::nonNull).sorted().toList();
        final long all = flows.stream().filter(f -> f.messages() != null).mapToLong(f -> f.messages().size()).sum();
        if (all == 0) {
            return "";
        }
        return String.format("messages completed     %d of %d on %d connections%s%n", done.size(), all, flows.size(), done.isEmpty() ? ""
            : String.format(", completion time (µs) p50 %.1f  max %.1f", done.get((done.size() - 1) / 2), done.get(done.size() - 1)));
    }

    /** The network's report without the flows' times, as the text table reads it. */
    public NetworkReport asNetworkReport() {
        return new NetworkReport(topology, routing, pattern, transport, totals, completionUs, headerLatencyNs, tiers, switches, List.of(), run, null);
    }
}
