package io.trimswitch.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.live.LiveSwitch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code trimswitch stats}: a running switch's counters from its counters file, as a table or JSON; bad files in one line. */
class StatsCommandTest {
    @TempDir
    Path dir;

    private LiveSwitch live;

    @AfterEach
    void stop() {
        if (live != null) {
            live.stop();
        }
    }

    /** A switch of two UDP ports on loopback, its counters in {@code counters}; port 0 has received one too-short datagram. */
    private void startWithOneDropOn(final Path counters) throws Exception {
        final Settings.Port port = Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote("127.0.0.1:9").withVni(42);
        live = new LiveSwitch(Settings.DEFAULTS.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(2)).withRealtime(x -> x.withIdle(Settings.Idle.YIELD))
            .withMetrics(x -> x.withAddress(null).withCountersFile(counters.toString())).withPorts(java.util.List.of(port, port)));
        live.start();
        try (DatagramChannel host = DatagramChannel.open()) {
            final ByteBuffer tooShort = ByteBuffer.allocate(VxlanHeader.LENGTH + 4);
            VxlanHeader.write(new UnsafeBuffer(tooShort), 0, 42);
            host.send(tooShort, live.localAddress(0));
        }
        // The counters show it as soon as the port's thread counted it; wait for that, and for a sample of the gauges.
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (json(counters).get(0).get("rxDatagrams").asLong() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(250);
    }

    private static JsonNode json(final Path counters) throws IOException {
        final Cli.Result stats = Cli.trimswitch("stats", "--counters", counters.toString(), "--json");
        assertEquals(0, stats.exit(), stats.err());
        return new ObjectMapper().readTree(stats.out());
    }

    @Test
    void jsonHasOneObjectPerPortWithTheKeysItAlwaysHadInTheirOrder() throws Exception {
        final Path counters = dir.resolve("switch.counters");
        startWithOneDropOn(counters);
        final JsonNode ports = json(counters);
        assertEquals(2, ports.size(), ports.toString());
        final JsonNode port0 = ports.get(0);
        final List<String> keys = new ArrayList<>();
        port0.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("port", "dodTrimPackets", "droppedTrimPackets", "drops", "floodedFrames", "floodedPackets", "ingressTrimPackets", "oversizeControlPackets", "rxBytes",
            "rxDatagrams", "rxPackets", "rxSegments", "trimPackets", "txBytes", "txPackets", "txSegments", "txTrimPackets",
            "untrimmableIpv6Packets", "dataQueueDepth", "headerQueueDepth", "dataQueueDepthP50", "headerQueueDepthP50", "dataQueueDepthP90",
            "headerQueueDepthP90", "dataQueueDepthP99", "headerQueueDepthP99", "dataQueueDepthMax", "headerQueueDepthMax", "dataQueueMaxDepth",
            "headerQueueMaxDepth"), keys);
        assertEquals(0, port0.get("port").asInt());
        assertEquals(1, port0.get("rxDatagrams").asLong());
        assertEquals(1, port0.get("rxSegments").asLong(), "on a UDP port a datagram is one packet on the wire");
        assertEquals(0, port0.get("rxPackets").asLong(), "nothing entered the switch");
        assertEquals(1, port0.get("drops").get("tooShort").asLong());
        assertEquals(1, port0.get("drops").size(), port0.toString());
        assertFalse(ports.get(1).has("drops"), "a port that dropped nothing has no drops: " + ports.get(1));
    }

    @Test
    void theTableHasAColumnPerCounterAndTheDropsByReason() throws Exception {
        final Path counters = dir.resolve("switch.counters");
        startWithOneDropOn(counters);
        final Cli.Result table = Cli.trimswitch("stats", "--counters", counters.toString());
        assertEquals(0, table.exit(), table.err());
        final List<String> lines = table.out().lines().toList();
        assertEquals(3, lines.size(), table.out());
        assertEquals(List.of("port", "rx", "tx", "trims", "tx", "trims", "trim", "drops", "dataQ", "max", "hdrQ", "max", "drops"),
            List.of(lines.get(0).trim().split("\\s+")));
        assertEquals(List.of("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "tooShort=1"), List.of(lines.get(1).trim().split("\\s+")));
        assertTrue(lines.get(2).trim().endsWith(" -"), "no drops is a dash, never {}: " + lines.get(2));
        assertFalse(table.out().contains("{"), table.out());
    }

    @Test
    void watchingPrintsTheTimeAndEachPortsRatesSinceTheReadingBefore() throws Exception {
        final Path counters = dir.resolve("switch.counters");
        startWithOneDropOn(counters);
        final Cli.Result watch = Cli.trimswitch("stats", "--counters", counters.toString(), "--watch", "0.2", "--count", "2");
        assertEquals(0, watch.exit(), watch.err());
        final List<String> lines = watch.out().lines().toList();
        assertEquals(8, lines.size(), watch.out());
        for (final int reading : new int[] {0, 4}) {
            java.time.Instant.parse(lines.get(reading));
            assertTrue(lines.get(reading + 1).contains("rx pkt/s   tx pkt/s  rx Gb/s  tx Gb/s    trims/s  drops"), lines.get(reading + 1));
        }
        assertEquals(List.of("-", "-", "-", "-", "-", "tooShort=1"), tail(lines.get(2), 6), "no rate at the first reading");
        assertEquals(List.of("0", "0", "0.000", "0.000", "0", "tooShort=1"), tail(lines.get(6), 6), "a quiet port's rates are zero");

        final JsonNode json = new ObjectMapper().readTree(Cli.trimswitch("stats", "--counters", counters.toString(), "--json", "--watch", "0.1",
            "--count", "1").out());
        assertTrue(json.get(0).has("time") && json.get(0).has("txGbps") && json.get(0).get("txGbps").isNull(), json.toString());
        assertEquals(2, Cli.trimswitch("stats", "--counters", counters.toString(), "--count", "2").exit(), "--count needs --watch");
    }

    @Test
    void countersFileOfADeadSwitchIsSaidSoByStatsAndReplacedByTheNextRun() throws Exception {
        // A switch's file as SIGKILL leaves it: no process holds its lock, and its owner's process id names no process.
        final Path live = dir.resolve("live.counters");
        final Path dead = dir.resolve("dead.counters");
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try (io.trimswitch.dataplane.counters.CounterRegistry registry = io.trimswitch.dataplane.counters.CounterRegistry.mapped(live, 4)) {
            Files.copy(live, dead);
        }
        try (java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(dead, java.nio.file.StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.allocate(Long.BYTES).order(java.nio.ByteOrder.nativeOrder()).putLong(0, gone.pid()), 16);
        }
        final Cli.Result stats = Cli.trimswitch("stats", "--counters", dead.toString());
        assertEquals(2, stats.exit(), stats.out() + stats.err());
        assertEquals("trimswitch: the counters at " + dead + " are a dead switch's (process " + gone.pid() + " is no longer running): frozen at"
            + " its end; the next 'trimswitch run' here replaces them\n", stats.err());

        final Path config = dir.resolve("one.yaml");
        Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
        final Cli.Result run = Cli.trimswitch("run", "--config", config.toString(), "--counters", dead.toString(), "--duration-s", "0.5");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertEquals(1, run.out().lines().filter(line -> line.equals("trimswitch: replaced the counters a dead switch (process " + gone.pid()
            + ") left at " + dead)).count(), run.out());
        assertFalse(Files.exists(dead), "and removes its own when it stops");
    }

    private static List<String> tail(final String line, final int fields) {
        final List<String> all = List.of(line.trim().split("\\s+"));
        return all.subList(all.size() - fields, all.size());
    }

    @Test
    void withNoSwitchItSaysWhereItLookedInOneLine() {
        final Path nowhere = dir.resolve("none.counters");
        final Cli.Result stats = Cli.trimswitch("stats", "--counters", nowhere.toString());
        assertEquals(2, stats.exit());
        assertEquals("trimswitch: no switch's counters at " + nowhere
            + " (is 'trimswitch run' up, in this network namespace, with metrics.countersFile there?)\n", stats.err());
    }

    @Test
    void aFileThatIsNotASwitchsCountersIsNamedSoInOneLine() throws Exception {
        final Path text = Files.writeString(dir.resolve("notes.txt"), "not counters");
        final Cli.Result tooShort = Cli.trimswitch("stats", "--counters", text.toString(), "--json");
        assertEquals(2, tooShort.exit());
        assertEquals("trimswitch: " + text + " is not a switch's counters file (too short)\n", tooShort.err());
        final Path zeros = Files.write(dir.resolve("zeros.counters"), new byte[8192]);
        final Cli.Result noHeader = Cli.trimswitch("stats", "--counters", zeros.toString());
        assertEquals(2, noHeader.exit());
        assertEquals("trimswitch: " + zeros + " is not a switch's counters file (no trimswitch counters header)\n", noHeader.err());
        final Cli.Result directory = Cli.trimswitch("stats", "--counters", dir.toString());
        assertEquals(2, directory.exit());
        assertEquals(1, directory.err().lines().count(), directory.err());
        assertTrue(directory.err().startsWith("trimswitch: "), directory.err());
        assertEquals("trimswitch: " + dir + " is not a switch's counters file (a directory)\n", directory.err());
        final Path fifo = dir.resolve("fifo.counters");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        final Cli.Result pipe = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
            () -> Cli.trimswitch("stats", "--counters", fifo.toString()), "a FIFO is never opened, so nothing waits for a writer");
        assertEquals(2, pipe.exit());
        assertEquals("trimswitch: " + fifo + ": not a regular file (a device or a FIFO is never read)\n", pipe.err());
        final Cli.Result empty = Cli.trimswitch("stats", "--counters", "");
        assertEquals(2, empty.exit());
        assertEquals("trimswitch: --counters must name a file, got an empty name\n", empty.err());
    }

    @Test
    void theMetricsOptionIsGoneAndSaysWhatTookItsPlace() {
        final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:9464");
        assertEquals(2, stats.exit());
        assertEquals("trimswitch: --metrics is gone: stats reads the switch's counters file; name it with --counters FILE"
            + " (the switch's metrics.countersFile) if it is not the default\n", stats.err());
    }

    @Test
    void aStoppedSwitchLeavesNoCountersBehind() throws Exception {
        final Path counters = dir.resolve("switch.counters");
        startWithOneDropOn(counters);
        live.stop();
        assertEquals(2, Cli.trimswitch("stats", "--counters", counters.toString()).exit());
        assertFalse(Files.exists(counters));
    }

    /** A port whose receive queues two threads read: its rx is the sum, and stats shows what each thread read. */
    @Test
    void aPortReadByTwoThreadsShowsWhatEachRead() {
        try (io.trimswitch.dataplane.counters.CounterRegistry registry = io.trimswitch.dataplane.counters.CounterRegistry.inMemory(16)) {
            final io.trimswitch.dataplane.counters.CounterName own = io.trimswitch.dataplane.counters.CounterName.of(
                io.trimswitch.dataplane.counters.CounterType.RX_DATAGRAMS, 0);
            final io.trimswitch.dataplane.counters.CounterName other = new io.trimswitch.dataplane.counters.CounterName(
                io.trimswitch.dataplane.counters.CounterType.RX_DATAGRAMS, 0, 0, "thread 1");
            registry.block("sockets-0", List.of(own)).add(0, 5);
            registry.block("sockets-1", List.of(other)).add(0, 3);
            registry.block("sockets-0", List.of(io.trimswitch.dataplane.counters.CounterName.of(
                io.trimswitch.dataplane.counters.CounterType.RX_DATAGRAMS, 1))).add(0, 2);
            final List<java.util.Map<String, Object>> ports = StatsCommand.ports(io.trimswitch.dataplane.counters.CounterTotals.read(registry.reader()));
            assertEquals(8L, ports.get(0).get("rxDatagrams"));
            assertEquals(java.util.Map.of("own", 5L, "thread 1", 3L), ports.get(0).get("rxDatagramsByThread"));
            assertFalse(ports.get(1).containsKey("rxDatagramsByThread"), "a port one thread reads shows no split");
            final String table = StatsCommand.table(ports, false);
            assertTrue(table.contains("     rx frames by the threads that read its queues: its own 5, thread 1 3" + System.lineSeparator()), table);
            assertEquals(4, table.lines().count(), table);
        }
    }
}
