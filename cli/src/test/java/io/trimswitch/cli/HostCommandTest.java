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
    /** A receiver runs in a thread of its own: the common pool may have a single thread. */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> Thread.ofPlatform().daemon().start(task);

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
        "host --listen 127.0.0.1:7000 --start-at 1                  | --start-at is for the other end",
        "host --connect 127.0.0.1:7000 --size 1 --start-at 0        | --start-at must be a time in seconds since 1970",
        "host --connect 127.0.0.1:7000 --size 1 --start-at -5       | --start-at must be a time in seconds since 1970",
        "host --connect 127.0.0.1:7000 --size 1 --start-at NaN      | --start-at must be a time in seconds since 1970",
        "host --connect 127.0.0.1:7000 --size 1 --start-at Infinity | --start-at must be a time in seconds since 1970",
        "host --connect 127.0.0.1:7000 --size 1 --start-at 1e12     | at most a day from now",
        "host --connect 127.0.0.1:7000 --size 1 --start-at soon     | Invalid value for option '--start-at'",
        "host --connect 127.0.0.1:7000                              | a sender needs --size BYTES, --flow-sizes FILE or --duration-s",
        "host --connect 127.0.0.1:7000 --size 0                     | --size must be at least 1 byte",
        "host --connect 127.0.0.1:7000 --size 1 --flows 0           | --flows must be 1..65536",
        "host --connect 127.0.0.1:7000 --size 1 --spray 0           | --spray must be 1..256",
        "host --connect 127.0.0.1:7000 --size 1 --window 0          | --window must be at least 1",
        "host --connect 127.0.0.1:7000 --size 1 --rto-ms 0          | --rto-ms must be above 0",
        "host --connect 127.0.0.1:7000 --size 1 --timeout-s 0       | --timeout-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s 0               | --duration-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s -2              | --duration-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s NaN             | --duration-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s Infinity        | --duration-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s 1e300           | --duration-s must be above 0",
        "host --connect 127.0.0.1:7000 --duration-s x               | Invalid value for option '--duration-s'",
        "host --connect 127.0.0.1:7000 --duration-s 100000 --rate-gbps 400 | --duration-s 100000.0 at 400.0 Gb/s needs more than",
        "host --connect 127.0.0.1:7000 --size 1 --payload-bytes 0   | --payload-bytes must be 1..8950",
        "host --connect 127.0.0.1:7000 --size 1 --payload-bytes 8951 | --payload-bytes must be 1..8950",
        "host --connect 127.0.0.1:7000 --size 1 --payload-bytes -1  | --payload-bytes must be 1..8950",
        "host --connect 127.0.0.1:7000 --size 1 --payload-bytes 1e9 | Invalid value for option '--payload-bytes'",
        "host --listen 127.0.0.1:7000 --payload-bytes 9000          | --payload-bytes must be 1..8950",
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
            "127.0.0.1:" + port, "--rate-gbps", "0.5", "--expect-flows", "3", "--timeout-s", "20", "--json", receiverJson.toString()), OWN_THREAD);
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

    @Test
    void sendersGivenAStartInstantBeginNoEarlierAndOneAlreadyPastStartsAtOnceSayingSo() throws Exception {
        final int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            port = probe.getLocalPort();
        }
        final CompletableFuture<Cli.Result> receiving = CompletableFuture.supplyAsync(() -> Cli.trimswitch("host", "--listen",
            "127.0.0.1:" + port, "--expect-flows", "2", "--timeout-s", "20"), OWN_THREAD);
        Thread.sleep(300);
        final long before = System.currentTimeMillis();
        final String inOneSecond = String.valueOf((before + 1_000) / 1e3);
        final Cli.Result late = Cli.trimswitch("host", "--connect", "127.0.0.1:" + port, "--size", "10000", "--start-at",
            String.valueOf((before - 2_000) / 1e3), "--timeout-s", "20");
        final Cli.Result timed = Cli.trimswitch("host", "--connect", "127.0.0.1:" + port, "--size", "10000", "--start-at", inOneSecond,
            "--timeout-s", "20");
        final long after = System.currentTimeMillis();
        final Cli.Result received = receiving.get(60, TimeUnit.SECONDS);
        assertEquals(0, late.exit(), late.out() + late.err());
        assertTrue(late.err().matches("trimswitch: host: --start-at was \\d+\\.\\d{3} s ago: starting at once\\R"), late.err());
        assertEquals(0, timed.exit(), timed.out() + timed.err());
        assertTrue(timed.err().isEmpty(), timed.err());
        assertTrue(after - before >= 1_000, "the timed sender returned " + (after - before) + " ms after the start, before its instant");
        assertTrue(received.out().contains("receiver: 2 flows, 2 complete"), received.out());
    }

    @Test
    @Tag("host-timing")
    void aSenderWithADurationSendsForThatLongThenFinishesAndReports() throws Exception {
        final int port = freePort();
        final CompletableFuture<Cli.Result> receiving = CompletableFuture.supplyAsync(() -> Cli.trimswitch("host", "--listen",
            "127.0.0.1:" + port, "--rate-gbps", "0.2", "--expect-flows", "2", "--timeout-s", "20", "--payload-bytes", "1450"), OWN_THREAD);
        Thread.sleep(300);
        final Path json = dir.resolve("sender.json");
        final Cli.Result sent = Cli.trimswitch("host", "--connect", "127.0.0.1:" + port, "--duration-s", "0.4", "--flows", "2", "--spray", "4",
            "--payload-bytes", "1450", "--json", json.toString());
        final Cli.Result received = receiving.get(60, TimeUnit.SECONDS);
        assertEquals(0, sent.exit(), sent.out() + sent.err());
        assertEquals(0, received.exit(), received.out() + received.err());
        assertTrue(sent.out().contains("sender: 2 flows, 2 complete"), sent.out());
        assertTrue(received.out().contains("receiver: 2 flows, 2 complete"), received.out());
        for (final JsonNode flow : new ObjectMapper().readTree(json.toFile()).get("flows")) {
            assertTrue(flow.get("bytes").asLong() > 0 && flow.get("bytes").asLong() % 1450 == 0, flow.toString());
        }
    }

    @Test
    @Tag("host-timing")
    void aSenderEndedBySigtermFinishesWhatItSentAndWritesItsTableAndJson() throws Exception {
        final int port = freePort();
        final CompletableFuture<Cli.Result> receiving = CompletableFuture.supplyAsync(() -> Cli.trimswitch("host", "--listen",
            "127.0.0.1:" + port, "--rate-gbps", "0.2", "--expect-flows", "1", "--timeout-s", "20"), OWN_THREAD);
        Thread.sleep(300);
        final Path json = dir.resolve("sender.json");
        final Process sender = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
            TrimswitchCommand.class.getName(), "host", "--connect", "127.0.0.1:" + port, "--size", "1000000000", "--json", json.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("sender.out").toFile()).start();
        // SIGTERM once the sender has its UDP socket, however long its JVM took to start, and a moment later.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hasUdpSocket(sender.pid())) {
            assertTrue(sender.isAlive() && System.nanoTime() < deadline, "host too slow: the sender opened no UDP socket in 60 s");
            Thread.sleep(20);
        }
        Thread.sleep(500);
        sender.destroy();
        assertTrue(sender.waitFor(20, TimeUnit.SECONDS), "the sender did not end");
        final String printed = Files.readString(dir.resolve("sender.out"));
        assertTrue(printed.contains("sender: 1 flows, 1 complete"), printed);
        final JsonNode flow = new ObjectMapper().readTree(json.toFile()).get("flows").get(0);
        assertTrue(flow.get("complete").asBoolean() && flow.get("bytes").asLong() < 1_000_000_000L, flow.toString());
        final Cli.Result received = receiving.get(60, TimeUnit.SECONDS);
        assertTrue(received.out().contains("receiver: 1 flows, 1 complete"), received.out() + received.err());
    }

    /** Whether process {@code pid} holds a socket that the kernel lists as UDP. */
    private static boolean hasUdpSocket(final long pid) throws IOException {
        final java.util.Set<String> inodes = new java.util.HashSet<>();
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    final String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (final IOException closedMeanwhile) {
                    // The descriptor closed between the listing and the read: not a socket to count.
                }
            });
        } catch (final java.nio.file.NoSuchFileException ended) {
            return false;
        }
        // Java's sockets are IPv6 ones that also carry IPv4, unless the JVM was told to prefer IPv4.
        for (final String table : new String[] {"/proc/net/udp", "/proc/net/udp6"}) {
            if (Files.readAllLines(Path.of(table)).stream().skip(1).map(line -> line.strip().split("\\s+"))
                .anyMatch(fields -> fields.length > 9 && inodes.contains(fields[9]))) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return probe.getLocalPort();
        }
    }
}
