package io.trimswitch.network.fixedwindow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.run.NetworkReportBuilder;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.config.ConfigException;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.Transports;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transport that exists only here, registered by name in this module's test META-INF/services, runs an htsim fat
 * tree to the end through the same registry and the same network run as NDP and UET: what adding a transport takes.
 */
class FixedWindowTransportTest {
    /** Eight hosts send 300 packets each to host 0 at once: its port's data queue overflows and trims. */
    private static HtsimExperiment incast() {
        final StringBuilder m = new StringBuilder("Nodes 16\nConnections 8\n");
        for (int src = 1; src <= 8; src++) {
            m.append(src).append("->0 start 0 size 1200000\n");
        }
        return HtsimExperiment.of(null, HtsimMatrix.parse(m.toString(), "incast.cm"),
            new HtsimExperiment.Options("ideal", "ideal", "ideal", 4000, null, null, null, null, null, null));
    }

    private static HtsimReport run(final HtsimExperiment experiment, final int window) {
        final Transport transport = Transports.named("fixed-window");
        final NetworkRun run = NetworkRun.of(experiment, transport, transport.settings(Map.of("window", window)));
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    @Test
    void aFixedWindowIncastFinishesEveryFlowSendingTrimmedPacketsAgain() {
        final HtsimReport report = run(incast(), 16);
        assertEquals("fixed-window", report.transport());
        assertEquals(8, report.flows().size());
        assertTrue(report.flows().stream().allMatch(f -> f.finishUs() != null), "every flow finishes: " + report.flows());
        assertTrue(report.conservation(), "every packet delivered, trimmed or counted as dropped");
        final long resent = report.flows().stream().mapToLong(f -> f.retransmissions() == null ? 0 : f.retransmissions()).sum();
        assertTrue(resent > 0, "an 8:1 incast of 16-packet windows trims, and trimmed packets are sent again");
        assertEquals(resent, report.section("fixed-window").path("retransmissions").asLong());
        assertEquals(16, report.section("fixed-window").path("window").asInt());
    }

    @Test
    void itsSectionIsWrittenUnderItsNameAndReadBack() throws Exception {
        final ObjectMapper json = new ObjectMapper();
        final HtsimReport report = run(incast(), 16);
        final String written = json.writeValueAsString(report);
        assertTrue(written.contains("\"fixed-window\":{\"window\":16,"), written);
        // As a sharded evaluation reads a stored run back: without the echoed settings, which the plan gives again.
        final com.fasterxml.jackson.databind.node.ObjectNode stored = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(written);
        stored.remove("config");
        // The unfinished flows are written for the reader and read from the flows again, never taken for a section.
        stored.putArray("unfinished");
        final HtsimReport read = json.treeToValue(stored, HtsimReport.class);
        assertEquals(report.section("fixed-window").toString(), read.section("fixed-window").toString());
        assertNull(read.section("unfinished"));
    }

    @Test
    void aWindowOfOnePacketNeverOverflowsTheQueue() {
        final HtsimReport report = run(incast(), 1);
        assertTrue(report.flows().stream().allMatch(f -> f.finishUs() != null));
        assertEquals(0, report.section("fixed-window").path("retransmissions").asLong());
    }

    @Test
    void aBadBlockIsRefusedInOneLineAndAnUnknownNameListsTheTransports() {
        final Transport transport = Transports.named("fixed-window");
        assertEquals("fixed-window.window must be 1..4096 packets, got 0",
            assertThrows(ConfigException.class, () -> transport.settings(Map.of("window", 0))).getMessage());
        final String unknown = assertThrows(ConfigException.class, () -> Transports.named("tcp")).getMessage();
        assertEquals("no transport named 'tcp'; there are fixed-window, ndp", unknown);
    }
}
