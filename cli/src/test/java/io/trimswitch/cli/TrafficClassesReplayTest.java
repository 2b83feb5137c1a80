package io.trimswitch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrafficClassesReplayTest {
    private static final Path TWO_CLASSES = Path.of("..", "config", "examples", "two-class.yaml");

    @TempDir
    Path dir;

    private JsonNode replay(final Path input, final String... config) throws IOException {
        final Path json = dir.resolve("report-" + config.length + ".json");
        final String[] args = new String[4 + 2 + config.length];
        args[0] = "replay";
        args[1] = "--in";
        args[2] = input.toString();
        args[3] = "--json";
        args[4] = json.toString();
        args[5] = "--timing=line-rate";
        System.arraycopy(config, 0, args, 6, config.length);
        final Cli.Result result = trimswitch(args);
        assertEquals(0, result.exit(), result.err());
        return new ObjectMapper().readTree(json.toFile());
    }

    private static JsonNode flowFrom(final JsonNode report, final int port) {
        for (final JsonNode flow : report.get("flows")) {
            if (flow.get("src").asInt() == port) {
                return flow;
            }
        }
        throw new AssertionError("no flow from port " + port);
    }

    private static JsonNode port(final JsonNode report, final int id) {
        for (final JsonNode port : report.get("ports")) {
            if (port.get("id").asInt() == id) {
                return port;
            }
        }
        throw new AssertionError("no port " + id);
    }

    @Test
    void anUntrimmableFlowInItsOwnDeepQueueIsNeverTrimmedNorDroppedWhileTheNdpIncastBesideItIsTrimmed() throws IOException {
        final Path input = ReplayFixtures.twoClasses(dir.resolve("in.pcapng"), 200);
        final JsonNode report = replay(input, "--config", TWO_CLASSES.toString());
        assertTrue(report.get("conservation").asBoolean());
        final JsonNode tcp = flowFrom(report, 5);
        assertEquals(200, tcp.get("whole").asLong(), tcp.toString());
        assertEquals(0, tcp.get("headers").asLong());
        assertEquals(0, tcp.get("dropped").asLong());
        long ndpHeaders = 0;
        for (int sender = 0; sender < 4; sender++) {
            final JsonNode ndp = flowFrom(report, sender);
            assertEquals(0, ndp.get("dropped").asLong(), ndp.toString());
            ndpHeaders += ndp.get("headers").asLong();
        }
        assertTrue(ndpHeaders > 400, "the 4:1 NDP incast is trimmed: " + ndpHeaders + " headers");
        final JsonNode queues = port(report, 4).get("queues");
        assertEquals(2, queues.size());
        assertEquals("drop", queues.get(0).get("discard").asText());
        assertEquals(200, queues.get(0).get("queued").asLong());
        assertEquals(0, queues.get(0).get("overflowed").asLong());
        assertTrue(queues.get(0).get("maxDepth").asInt() > 16, "the TCP queue is deeper than the trimming one: " + queues.get(0));
        assertEquals("trim", queues.get(1).get("discard").asText());
        assertTrue(queues.get(1).get("maxDepth").asInt() <= 16);
    }

    @Test
    void withTheReproducedSwitchsOneQueueTheSameUntrimmableFlowIsDroppedWhereItMeetsTheIncast() throws IOException {
        final Path input = ReplayFixtures.twoClasses(dir.resolve("in.pcapng"), 200);
        final JsonNode report = replay(input);
        final JsonNode tcp = flowFrom(report, 5);
        assertTrue(tcp.get("dropped").asLong() > 0, tcp.toString());
        assertEquals(0, tcp.get("headers").asLong());
        assertFalse(port(report, 4).has("queues"), "no traffic classes, no per-queue report");
    }

    @Test
    void trimmedPacketsWaitInTheDataQueueTheSettingsNameForThemInsteadOfTheHeaderQueue() throws IOException {
        final Path input = ReplayFixtures.twoClasses(dir.resolve("in.pcapng"), 200);
        final Path yaml = java.nio.file.Files.writeString(dir.resolve("trimmed-queue.yaml"), """
            qos:
              queues:
                - {packets: 1024, discard: drop}
                - {packets: 16, discard: trim}
                - {packets: 1024, discard: drop, scheduling: strict}
              dscpToTc: {10: 1}
              trimmedQueue: 2
            """);
        final JsonNode report = replay(input, "--config", yaml.toString());
        assertTrue(report.get("conservation").asBoolean());
        final JsonNode port = port(report, 4);
        assertEquals(0, port.get("maxHeaderQueue").asInt(), "no trimmed packet waits in the header queue: " + port);
        final long headers = report.get("deliveredHeader").asLong();
        assertTrue(headers > 400, "the incast is trimmed: " + headers);
        assertEquals(headers, port.get("queues").get(2).get("queued").asLong(), "every trimmed packet went through queue 2");
        assertEquals(0, report.get("dropped").asLong());
    }
}
