package io.trimswitch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScenarioCommandTest {
    @TempDir
    Path dir;

    private static void assertOneLineError(final Cli.Result result, final String expected) {
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in: " + result.err());
    }

    private Path yaml(final String text) throws IOException {
        final Path file = dir.resolve("switch.yaml");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void aScenarioWritesTheReportWithTheKeysToolsRead() throws IOException {
        final Path json = dir.resolve("report.json");
        final Cli.Result result = trimswitch("scenario", "--transport", "open-loop", "--pattern", "incast:8->2", "--mechanism", "tofino", "--packets", "50", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("trims vs ideal"), result.out());
        final JsonNode report = new ObjectMapper().readTree(json.toFile());
        for (final String key : new String[] {"mechanism", "pattern", "sent", "deliveredWhole", "deliveredHeader", "dropped",
            "conservation", "trims", "pipelines", "flows", "ports", "headerLatencyNs", "headerArrivalNs", "config"}) {
            assertTrue(report.has(key), "missing " + key);
        }
        assertEquals("tofino", report.get("mechanism").asText());
        assertEquals(400, report.get("sent").asLong());
        assertTrue(report.get("conservation").asBoolean());
        for (final String key : new String[] {"ingress", "dod", "mirror", "ideal", "total", "relativeToIdeal"}) {
            assertTrue(report.get("trims").has(key), "missing trims." + key);
        }
        for (final String key : new String[] {"id", "dodDeflections", "maxDodQueue", "dodOverflows", "signals"}) {
            assertTrue(report.get("pipelines").get(0).has(key), "missing pipelines[]." + key);
        }
        for (final String key : new String[] {"src", "dst", "sent", "whole", "headers", "dropped", "goodputGbps"}) {
            assertTrue(report.get("flows").get(0).has(key), "missing flows[]." + key);
        }
        for (final String key : new String[] {"p50", "p90", "p99", "max"}) {
            assertTrue(report.get("headerLatencyNs").has(key), "missing headerLatencyNs." + key);
        }
        assertTrue(report.get("ports").get(0).has("stateTimeNs"));
    }

    @Test
    void severalMechanismsGiveAnArrayOfReports() throws IOException {
        final Path json = dir.resolve("reports.json");
        final Cli.Result result = trimswitch("scenario", "--pattern", "pairs:0->1,2->1", "--mechanism", "dod,ideal", "--packets", "20", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        final JsonNode reports = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, reports.size());
        assertEquals("dod", reports.get(0).get("mechanism").asText());
        assertEquals("ideal", reports.get(1).get("mechanism").asText());
    }

    @Test
    void repeatedMechanismOptionsAddUpWithTheirCommaSeparatedNames() throws IOException {
        final Path json = dir.resolve("reports.json");
        final Cli.Result result = trimswitch("scenario", "--pattern", "pairs:0->1", "--mechanism", "tofino", "--mechanism=dod,mod", "--no-ideal",
            "--packets", "5", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        final JsonNode reports = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, reports.size());
        assertEquals("tofino", reports.get(0).get("mechanism").asText());
        assertEquals("dod", reports.get(1).get("mechanism").asText());
        assertEquals("mod", reports.get(2).get("mechanism").asText());
    }

    @Test
    void settingsComeFromYamlAndOptionsOverrideThem() throws IOException {
        final Path json = dir.resolve("report.json");
        final Path config = yaml("mechanism: dod\nworkload:\n  pattern: incast:4->1\n  packets: 10\ncontrol:\n  t0Us: 3\n  t1Us: 9\ntransport:\n  kind: open-loop\n");
        final Cli.Result result = trimswitch("scenario", "--config", config.toString(), "--packets", "12", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        final JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertEquals("dod", report.get("mechanism").asText());
        assertEquals(48, report.get("sent").asLong());
        assertEquals(3.0, report.get("config").get("control").get("t0Us").asDouble());
    }

    @Test
    void aSonicConfigDbOfTheReproducedSwitchGivesItsResults() throws IOException {
        final Path fromDb = dir.resolve("db.json");
        final Path plain = dir.resolve("plain.json");
        final Cli.Result db = trimswitch("scenario", "--mechanism", "tofino", "--packets", "100", "--config-db",
            Path.of("..", "config", "examples", "config_db-paper.json").toString(), "--json", fromDb.toString());
        assertEquals(0, db.exit(), db.err());
        assertEquals(0, trimswitch("scenario", "--mechanism", "tofino", "--packets", "100", "--json", plain.toString()).exit());
        final com.fasterxml.jackson.databind.node.ObjectNode a = (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree(fromDb.toFile());
        final com.fasterxml.jackson.databind.node.ObjectNode b = (com.fasterxml.jackson.databind.node.ObjectNode) new ObjectMapper().readTree(plain.toFile());
        assertEquals(1, a.get("config").get("qos").get("queues").size());
        a.remove("config");
        b.remove("config");
        // With traffic classes the report lists each port's one queue; the rest is the reproduced switch's report.
        a.get("ports").forEach(port -> ((com.fasterxml.jackson.databind.node.ObjectNode) port).remove("queues"));
        assertTrue(b.equals(a), "everything but the settings' echo and the queue lists is the same");
    }

    @Test
    void aConfigDbTheModelCannotFollowIsOneLineNamingTableAndKey() throws IOException {
        final Path db = Files.writeString(dir.resolve("config_db.json"), "{\"SCHEDULER\": {\"s\": {\"type\": \"WFQ\"}}, \"QUEUE\": {\"Ethernet0|0\": {\"scheduler\": \"s\"}},"
            + " \"BUFFER_PROFILE\": {\"p\": {}}, \"BUFFER_QUEUE\": {\"Ethernet0|0\": {\"profile\": \"p\"}}}");
        final Cli.Result result = trimswitch("scenario", "--config-db", db.toString());
        assertEquals(2, result.exit());
        assertEquals("trimswitch: " + db + ": SCHEDULER|s: type must be STRICT, DWRR or WRR, got 'WFQ'", result.err().strip());
    }

    @Test
    void pcapDirHoldsWhatEachPortReceivedAndSent() throws java.io.IOException {
        final Path pcaps = dir.resolve("pcaps");
        final Cli.Result result = trimswitch("scenario", "--transport", "open-loop", "--pattern", "pairs:1->2", "--mechanism", "tofino", "--no-ideal", "--packets", "3", "--pcap-dir", pcaps.toString());
        assertEquals(0, result.exit(), result.err());
        assertEquals(24 + 3 * (16 + 1500), pcaps.resolve("tofino/port01-rx.pcap").toFile().length());
        assertEquals(24 + 3 * (16 + 1500), pcaps.resolve("tofino/port02-tx.pcap").toFile().length());
        // Each frame whole: Ethernet, IPv4 (total length 1486), UDP, NDP headers, then a payload of zeros.
        final byte[] sent = java.nio.file.Files.readAllBytes(pcaps.resolve("tofino/port02-tx.pcap"));
        for (int frame = 0; frame < 3; frame++) {
            final int at = 24 + frame * (16 + 1500) + 16;
            assertEquals(1486, (sent[at + 16] & 0xFF) << 8 | sent[at + 17] & 0xFF, "IPv4 total length of frame " + frame);
            for (int i = 50; i < 1500; i++) {
                assertEquals(0, sent[at + i], "payload byte " + i + " of frame " + frame);
            }
        }
    }

    @Test
    void anUnknownPatternIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--pattern", "ring:4"), "unknown pattern 'ring:4'");
    }

    @Test
    void moreSendersThanPortsIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--pattern", "incast:65->1"), "65 senders but the switch has 64 ports");
    }

    @Test
    void t1BelowT0IsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--t0-us", "10", "--t1-us", "5"), "--t1-us (5.0) must not be below control.t0Us (10.0) (control.t1Us)");
    }

    @Test
    void aNegativeRateIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--pessimistic-rate", "-1"), "--pessimistic-rate must be");
    }

    @Test
    void aZeroPortRateIsOneClearLine() throws IOException {
        assertOneLineError(trimswitch("scenario", "--config", yaml("fabric:\n  portRateGbps: 0\n").toString()), "fabric.portRateGbps must be 0.001..10000 Gb/s, got 0.0");
    }

    @Test
    void anUnknownYamlKeyIsOneClearLineNamingTheKey() throws IOException {
        assertOneLineError(trimswitch("scenario", "--config", yaml("fabric:\n  portz: 3\n").toString()), "unknown key 'fabric.portz' (line 2)");
    }

    @Test
    void malformedYamlIsOneClearLine() throws IOException {
        assertOneLineError(trimswitch("scenario", "--config", yaml("fabric: [1, 2\n").toString()), "switch.yaml");
    }

    @Test
    void aValueOfTheWrongTypeIsOneClearLine() throws IOException {
        assertOneLineError(trimswitch("scenario", "--config", yaml("workload:\n  packets: many\n").toString()), "bad value for 'workload.packets'");
    }

    @Test
    void anUnreadableFileIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--config", dir.resolve("missing.yaml").toString()), "missing.yaml: no such file");
    }

    @Test
    void anUnknownMechanismIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--mechanism", "magic"), "unknown mechanism 'magic': expected one of ideal, mod, dod, tofino, tofino2");
    }

    @Test
    void anUnknownOptionIsOneClearLine() {
        assertOneLineError(trimswitch("scenario", "--speed", "3"), "Unknown options: '--speed'");
    }

    @Test
    void anUnwritableJsonPathIsOneClearLine() throws IOException {
        final Path blocker = Files.writeString(dir.resolve("file"), "x");
        assertOneLineError(trimswitch("scenario", "--pattern", "pairs:0->1", "--packets", "1", "--json", blocker.resolve("r.json").toString()), "cannot write");
    }

    @Test
    void openLoopJumboFramesCrossTheSwitchInBothClocksWholeOrTrimmed() throws IOException {
        for (final String clock : new String[] {"virtual", "real"}) {
            final Path json = dir.resolve(clock + ".json");
            final Cli.Result run = trimswitch("scenario", "--clock", clock, "--transport", "open-loop", "--pattern", "incast:4->1",
                "--packet-bytes", "9018", "--packets", "20", "--duration-us", "2000", "--mechanism", "tofino", "--no-ideal", "--json", json.toString());
            assertEquals(0, run.exit(), run.err());
            JsonNode report = new ObjectMapper().readTree(json.toFile());
            report = report.isArray() ? report.get(0) : report;
            assertEquals(80, report.get("sent").asLong(), clock);
            assertEquals(0, report.get("dropped").asLong(), clock + ": none dropped as oversize\n" + run.out());
            assertEquals(80, report.get("deliveredWhole").asLong() + report.get("deliveredHeader").asLong(), clock);
            assertTrue(report.get("deliveredHeader").asLong() > 0, clock + ": a 4:1 incast of jumbo frames trims");
        }
    }

    @Test
    void theScenarioCommandRunsInRealTimeAndRefusesWhatOnlyVirtualTimeCanDo() {
        final Cli.Result run = Cli.trimswitch("scenario", "--clock", "real", "--mechanism", "tofino", "--pattern", "incast:4->1",
            "--packets", "100", "--duration-us", "60", "--dilation", "2000", "--no-ideal");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("conservation") && run.out().contains("ok"), run.out());

        final Cli.Result ideal = Cli.trimswitch("scenario", "--clock", "real", "--mechanism", "ideal");
        assertEquals(2, ideal.exit());
        assertEquals(1, ideal.err().strip().lines().count(), ideal.err());
        assertTrue(ideal.err().contains("ideal"), ideal.err());

        final Cli.Result dilation = Cli.trimswitch("scenario", "--clock", "real", "--dilation", "0");
        assertEquals(2, dilation.exit());
        assertTrue(dilation.err().contains("realtime.dilation"), dilation.err());

        final Cli.Result clock = Cli.trimswitch("scenario", "--clock", "wall");
        assertEquals(2, clock.exit());
        assertTrue(clock.err().contains("clock must be one of virtual, real"), clock.err());
    }
}
