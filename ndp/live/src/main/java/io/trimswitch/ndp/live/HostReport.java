package io.trimswitch.ndp.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What a live host reports: its flows, and the datagrams it ignored, by reason. {@code foreign}: from an address or a
 * run that is not its peer's; {@code truncated}: too short to say which packet they were; {@code malformed}: naming a
 * flow or packet that does not exist; {@code replayedHeaders}: a header for a packet that had already arrived whole;
 * {@code returnedHeaders}: headers the switch sent back to this sender (taken as NACKs).
 */
public record HostReport(
    String role, List<FlowResult> flows, long foreign, long truncated, long malformed, long replayedHeaders, long returnedHeaders) {

    public boolean allComplete() {
        return flows.stream().allMatch(FlowResult::complete);
    }

    public void printTable(final PrintWriter out) {
        out.printf(Locale.ROOT, "%-24s %6s %12s %12s %12s %8s %8s%n", "peer", "flow", "bytes", "FCT (us)", "goodput Gb/s", "retx", "headers");
        for (final FlowResult flow : flows) {
            out.printf(Locale.ROOT, "%-24s %6d %12d %12s %12s %8d %8d%n", flow.peer(), flow.flow(), flow.bytes(),
                flow.complete() ? String.format(Locale.ROOT, "%.1f", flow.fctMicros()) : "unfinished",
                flow.complete() ? String.format(Locale.ROOT, "%.3f", flow.goodputGbps()) : "-", flow.retransmissions(), flow.headers());
        }
        out.printf(Locale.ROOT, "%s: %d flows, %d complete; ignored: %d foreign, %d truncated, %d malformed, %d replayed headers; %d returned headers%n",
            role, flows.size(), flows.stream().filter(FlowResult::complete).count(), foreign, truncated, malformed, replayedHeaders, returnedHeaders);
        out.flush();
    }

    public void writeJson(final Path file) throws IOException {
        Files.writeString(file, json());
    }

    /** The report as JSON: the role, each flow, what was ignored. */
    public String json() throws IOException {
        final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        final ObjectNode root = mapper.createObjectNode();
        root.put("role", role);
        final ArrayNode array = root.putArray("flows");
        for (final FlowResult flow : flows) {
            final ObjectNode node = array.addObject();
            node.put("peer", flow.peer());
            node.put("flow", flow.flow());
            node.put("bytes", flow.bytes());
            node.put("complete", flow.complete());
            if (flow.complete()) {
                node.put("fctUs", flow.fctMicros());
                node.put("goodputGbps", flow.goodputGbps());
            } else {
                node.putNull("fctUs");
                node.putNull("goodputGbps");
            }
            node.put("retransmissions", flow.retransmissions());
            node.put("headers", flow.headers());
            node.put("nackedRetransmissions", flow.nackedRetransmissions());
        }
        final ObjectNode ignored = root.putObject("ignored");
        ignored.put("foreign", foreign);
        ignored.put("truncated", truncated);
        ignored.put("malformed", malformed);
        ignored.put("replayedHeaders", replayedHeaders);
        root.put("returnedHeaders", returnedHeaders);
        return mapper.writeValueAsString(root);
    }
}
