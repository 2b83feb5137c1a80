package io.trimswitch.cli;

import io.trimswitch.network.htsim.HtsimExperiment;
import io.trimswitch.network.htsim.HtsimMatrix;
import io.trimswitch.network.htsim.HtsimReport;
import io.trimswitch.network.htsim.HtsimReportJson;
import io.trimswitch.network.run.NetworkReportBuilder;
import io.trimswitch.network.run.NetworkRun;
import io.trimswitch.simulator.Transport;
import io.trimswitch.simulator.Transports;
import io.trimswitch.switching.report.ReportJson;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streamed JSON of an htsim experiment's report is, byte for byte, what data binding writes for it: NDP's and
 * UET's hosts, messages on reused connections, and flows left unfinished when the run ends.
 */
class HtsimReportJsonTest {
    private static final String PERMUTATION = "Nodes 16\nConnections 4\n0->5 start 0 size 200000\n5->10 start 0 size 200000\n"
        + "10->15 start 5 size 90000\n15->0 start 0 size 200000\n";

    private static HtsimReport run(final String matrix, final String transport, final Map<String, Object> block, final Double endUs,
        final Integer failedLinks) {
        final Transport hosts = Transports.named(transport);
        final boolean uet = transport.equals("uet");
        final HtsimMatrix flows = HtsimMatrix.parse(matrix, "m.cm");
        final HtsimExperiment sized = HtsimExperiment.of(null, flows, options(null, failedLinks, endUs, uet));
        final HtsimExperiment experiment = HtsimExperiment.of(null, flows,
            options(NetworkRun.defaultQueuePackets(sized, hosts, true), failedLinks, endUs, uet));
        final NetworkRun run = NetworkRun.of(experiment, hosts, hosts.settings(block));
        return NetworkReportBuilder.build(run, run.run(), experiment);
    }

    private static HtsimExperiment.Options options(final Integer queue, final Integer failedLinks, final Double endUs, final boolean uet) {
        return new HtsimExperiment.Options("tofino", "ideal", "ideal", 4086, queue, null, null, null, failedLinks, 7L, endUs, uet);
    }

    private static String streamed(final HtsimReport report) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        HtsimReportJson.write(bytes, report);
        final String written = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(written, HtsimReportJson.toJson(report), "the file and standard output carry the same text");
        return written;
    }

    @Test
    void ndpsReportIsWrittenAsDataBindingWritesIt() throws IOException {
        final HtsimReport report = run(PERMUTATION, "ndp", Map.of(), null, null);
        assertEquals(4, report.flows().size());
        assertEquals(ReportJson.toJson(report), streamed(report));
    }

    @Test
    void uetsReportWithItsSectionAndFailedLinksIsWrittenAsDataBindingWritesIt() throws IOException {
        final HtsimReport report = run(PERMUTATION, "uet", Map.of("loadBalancer", "mixed"), null, 2);
        assertNotNull(report.section("uet"), "UET writes a section of its own");
        final String json = streamed(report);
        assertTrue(json.contains("\"uet\" : {"), json);
        assertEquals(ReportJson.toJson(report), json);
    }

    @Test
    void messagesOnReusedConnectionsAreWrittenAsDataBindingWritesThem() throws IOException {
        final HtsimReport report = run("Nodes 16\nConnections 3\n0->15 id 3 msg start 0 size 400000\n0->15 id 3 msg start 100 size 40860\n"
            + "1->14 start 0 size 40860\n", "uet", Map.of("connectionReuse", true), null, null);
        final String json = streamed(report);
        assertTrue(json.contains("\"messages\" : [ {"), json);
        assertEquals(ReportJson.toJson(report), json);
    }

    @Test
    void flowsLeftUnfinishedAtTheEndAreWrittenAsDataBindingWritesThem() throws IOException {
        for (final String transport : new String[] {"ndp", "uet"}) {
            final HtsimReport report = run("Nodes 16\nConnections 2\n0->15 start 0 size 40000\n4->13 id 7 start 0 size 4000000\n", transport,
                Map.of(), 100.0, null);
            assertNotNull(report.unfinished(), transport + ": the long flow is still running at 100 µs");
            final String json = streamed(report);
            assertTrue(json.contains("\"unfinished\" : [ {"), json);
            assertEquals(ReportJson.toJson(report), json, transport);
        }
    }
}
