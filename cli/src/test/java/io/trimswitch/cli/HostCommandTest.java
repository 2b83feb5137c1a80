package io.trimswitch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code trimswitch host}: what it refuses, and a sender and a receiver on loopback as a user runs them. */
class HostCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "host                                                       | give either --listen ADDR:PORT (receiver) or --connect",
        "host --listen 127.0.0.1:7000 --connect 127.0.0.1:7000      | give either --listen",
        "host --listen 127.0.0.1                                    | --listen must be HOST:PORT",
        "host --listen no.such.host.invalid:666                     | unknown host",
        "host --listen 192.0.2.77:666 --duration-s 1                | cannot bind",
        "host --listen 127.0.0.1:7000 --rate-gbps 0                 | --rate-gbps must be above 0",
        "host --listen 127.0.0.1:7000 --rate-gbps NaN               | --rate-gbps must be above 0",
        "host --listen 127.0.0.1:7000 --duration-s -1               | --duration-s must be above 0",
        "host --listen 127.0.0.1:7000 --size 100                    | --size is for the other end",
        "host --listen 127.0.0.1:7000 --spray 2                     | --spray is for the other end",
        "host --listen 127.0.0.1:7000 --expect-flows 0              | --expect-flows must be 1..4096",
        "host --connect 127.0.0.1:7000                              | a sender needs --size BYTES or --flow-sizes",
        "host --connect 127.0.0.1:7000 --size 0                     | --size must be at least 1 byte",
        "host --connect 127.0.0.1:7000 --size 1 --flows 0           | --flows must be 1..65536",
        "host --connect 127.0.0.1:7000 --size 1 --spray 0           | --spray must be 1..256",
        "host --connect 127.0.0.1:7000 --size 1 --window 0          | --window must be at least 1",
        "host --connect 127.0.0.1:7000 --size 1 --rto-ms 0          | --rto-ms must be above 0",
        "host --connect 127.0.0.1:7000 --size 1 --timeout-s 0       | --timeout-s must be above 0",
        "host --connect 127.0.0.1:7000 --size 1 --duration-s 3      | --duration-s is for the other end",
        "host --connect 127.0.0.1:7000 --size 1000000000000000      | the flows need more than",
        "host --connect 127.0.0.1:7000 --size 1 --flow-sizes FILE   | --size and --flow-sizes are exclusive",
        "host --connect 127.0.0.1:7000 --flow-sizes DIR/none.csv    | no such file",
        "host --connect 127.0.0.1:7000 --flow-sizes FILE            | line 2: 'ten' is not a size in bytes",
        "host --connect 127.0.0.1:7000 --size 1 --json DIR/no/x.json | no such directory",
        "host --connect 127.0.0.1:7000 --size x                     | Invalid value for option '--size'"})
    void aBadCommandLineIsRefusedWithExitTwoAndOneLine(final String command, final String expected) throws IOException {
        final Path file = dir.resolve("sizes.csv");
        Files.writeString(file, "1000\nten\n");
        final String[] args = command.strip().replace("DIR", dir.toString()).replace("FILE", file.toString()).split(" +");
        final Cli.Result run = Cli.trimswitch(args);
        assertEquals(2, run.exit(), run.out() + run.err());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }

    @Test
    void anEmptyFlowSizesFileIsRefused() throws IOException {
        final Path file = Files.writeString(dir.resolve("empty.csv"), "# sizes\n\n");
        final Cli.Result run = Cli.trimswitch("host", "--connect", "127.0.0.1:7000", "--flow-sizes", file.toString());
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("no flow sizes in it"), run.err());
    }

    @Test
    @Tag("host-timing")
    void aSenderAndAReceiverOnLoopbackReportEveryFlowsBytesAndCompletionTime() throws Exception {
        final int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            port = probe.getLocalPort();
        }
        final Path sizes = Files.writeString(dir.resolve("sizes.csv"), "200000\n50000,ignored\n# a comment\n1400\n");
        final Path receiverJson = dir.resolve("receiver.json");
        final Path senderJson = dir.resolve("sender.json");
        final CompletableFuture<Cli.Result> receiving = CompletableFuture.supplyAsync(() -> Cli.trimswitch("host", "--listen",
            "127.0.0.1:" + port, "--rate-gbps", "0.5", "--expect-flows", "3", "--timeout-s", "20", "--json", receiverJson.toString()));
        Thread.sleep(300);
        final Cli.Result sent = Cli.trimswitch("host", "--connect", "127.0.0.1:" + port, "--flow-sizes", sizes.toString(), "--spray", "2",
            "--timeout-s", "20", "--json", senderJson.toString());
        final Cli.Result received = receiving.get(60, TimeUnit.SECONDS);
        assertEquals(0, sent.exit(), sent.out() + sent.err());
        assertEquals(0, received.exit(), received.out() + received.err());
        assertTrue(sent.out().contains("sender: 3 flows, 3 complete"), sent.out());
        assertTrue(received.out().contains("receiver: 3 flows, 3 complete"), received.out());
        final ObjectMapper mapper = new ObjectMapper();
        for (final Path json : new Path[] {senderJson, receiverJson}) {
            final JsonNode flows = mapper.readTree(json.toFile()).get("flows");
            assertEquals(3, flows.size());
            long bytes = 0;
            for (final JsonNode flow : flows) {
                bytes += flow.get("bytes").asLong();
                assertTrue(flow.get("fctUs").asDouble() > 0, flow.toString());
                assertTrue(flow.has("retransmissions") && flow.has("headers"), flow.toString());
            }
            assertEquals(251_400, bytes, json.toString());
        }
    }
}
