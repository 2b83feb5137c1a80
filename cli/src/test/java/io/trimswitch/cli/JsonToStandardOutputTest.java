package io.trimswitch.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --json -}, for every command that takes {@code --json FILE}: the JSON alone on standard output, ready for a
 * pipe, the table on standard error, and no file named {@code -}.
 */
class JsonToStandardOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void scenarioPrintsItsReportsAsJsonAndItsTableOnStandardError() throws IOException {
        final Cli.Result result = Cli.trimswitch("scenario", "--packets", "20", "--mechanism", "tofino,dod", "--no-ideal", "--json", "-");
        assertEquals(0, result.exit(), result.err());
        final JsonNode reports = onlyJson(result);
        assertTrue(reports.isArray() && reports.size() == 2, "an array for two runs: " + result.out());
        assertEquals("tofino", reports.get(0).get("mechanism").asText());
        assertTrue(result.err().contains("tofino") && result.err().contains("dod"), "the table on standard error: " + result.err());
    }

    @Test
    void fabricPrintsItsReportAsJson() throws IOException {
        final Cli.Result result = Cli.trimswitch("fabric", "--workload", "incast", "--racks", "2", "--packets", "100", "--json", "-");
        assertEquals(0, result.exit(), result.err());
        assertTrue(onlyJson(result).get("conservation").asBoolean(), result.out());
        assertTrue(result.err().contains("flows completed"), result.err());
    }

    @Test
    void replayPrintsItsReportAsJson() throws IOException {
        final Path capture = ReplayFixtures.incast(dir.resolve("in.pcapng"), 2, 5, 10);
        final Cli.Result result = Cli.trimswitch("replay", "--in", capture.toString(), "--json", "-");
        assertEquals(0, result.exit(), result.err());
        assertTrue(onlyJson(result).has("ports"), result.out());
        assertTrue(result.err().contains("per egress port"), result.err());
    }

    @Test
    void genReceivePrintsItsFlowsAsJson() throws IOException {
        final Cli.Result result = Cli.trimswitch("gen", "receive", "--bind", "127.0.0.1:" + freePort(), "--timeout-s", "0.2", "--json", "-");
        assertEquals(0, result.exit(), result.err());
        assertEquals(0, onlyJson(result).get("whole").asLong(), result.out());
        assertTrue(result.err().contains("gen: 0 whole"), result.err());
    }

    @Test
    void hostPrintsItsFlowsAsJsonAtBothEnds() throws Exception {
        final int port = freePort();
        final var ownThread = Executors.newSingleThreadExecutor();
        try {
            final CompletableFuture<Cli.Result> receiving = CompletableFuture.supplyAsync(() -> Cli.trimswitch("host", "--listen",
                "127.0.0.1:" + port, "--rate-gbps", "0.5", "--expect-flows", "1", "--timeout-s", "20", "--json", "-"), ownThread);
            Thread.sleep(300);
            final Cli.Result sent = Cli.trimswitch("host", "--connect", "127.0.0.1:" + port, "--size", "20000", "--timeout-s", "20", "--json", "-");
            final Cli.Result received = receiving.get(60, TimeUnit.SECONDS);
            assertEquals(0, sent.exit(), sent.out() + sent.err());
            assertEquals(0, received.exit(), received.out() + received.err());
            assertEquals("sender", onlyJson(sent).get("role").asText());
            assertEquals(20_000, onlyJson(received).get("flows").get(0).get("bytes").asLong(), received.out());
            assertTrue(received.err().contains("host: receiving on"), received.err());
        } finally {
            ownThread.shutdownNow();
        }
    }

    /** Standard output is one JSON document and nothing else, and no file named '-' was written. */
    private static JsonNode onlyJson(final Cli.Result result) throws IOException {
        assertTrue(result.out().strip().startsWith("{") || result.out().strip().startsWith("["), "JSON first: " + result.out());
        // One document and nothing after it: a table or a status line on standard output would fail here.
        final JsonNode node = JSON.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(result.out());
        assertFalse(Files.exists(Path.of("-")), "no file named '-'");
        return node;
    }

    private static int freePort() throws IOException {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return probe.getLocalPort();
        }
    }
}
