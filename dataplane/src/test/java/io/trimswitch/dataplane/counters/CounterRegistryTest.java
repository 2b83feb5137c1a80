package io.trimswitch.dataplane.counters;

import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CounterRegistryTest {
    @TempDir
    Path dir;

    @Test
    void eachCounterIsLabelledWithItsMetricPortAndNameAndTwoWritersOfOnePortAddUp() {
        final CounterRegistry registry = CounterRegistry.inMemory(8);
        final CounterBlock ingress = registry.block("ingress-0",
            List.of(CounterName.of(CounterType.RX_PACKETS, 3), new CounterName(CounterType.DROPS, 3, 2, "tooShort")));
        final CounterBlock sockets = registry.block("pipelines-0", List.of(new CounterName(CounterType.DROPS, 3, 0, "tooShort")));
        ingress.add(0, 5);
        ingress.increment(1);
        sockets.add(0, 2);

        final List<String> labels = new ArrayList<>();
        registry.reader().forEach((CountersReader.MetaData) (id, type, key, label) -> labels.add(label));
        assertEquals(List.of("rxPackets port 3 (ingress-0)", "drops port 3 tooShort (ingress-0)", "drops port 3 tooShort (pipelines-0)"), labels);
        final CounterTotals totals = CounterTotals.read(registry.reader());
        assertEquals(5, totals.get(3, CounterType.RX_PACKETS));
        assertEquals(java.util.Map.of("tooShort", 3L), totals.byName(3, CounterType.DROPS));
        assertFalse(totals.has(3, CounterType.TX_PACKETS));
        assertEquals(3, registry.allocated());
    }

    @Test
    void aPackedRegistryKeepsEachBlockInOneRunOfSlotsAndNeverAsksItsNames() {
        final CounterRegistry registry = CounterRegistry.packed();
        final CounterBlock[] blocks = new CounterBlock[200];
        for (int block = 0; block < blocks.length; block++) {
            blocks[block] = registry.block("port " + block, 23, () -> {
                throw new AssertionError("a packed registry's names are never read");
            });
            assertNotEquals(0, blocks[block].packedBase(), "block " + block + " lies in one run of slots");
            blocks[block].add(22, block);
        }
        assertEquals(200 * 23, registry.allocated(), "the slots skipped at a chunk's end are not counters");
        assertEquals(199, blocks[199].get(22));
        assertEquals(0, blocks[199].get(0));
        assertEquals(0, CounterRegistry.inMemory(4).block("w", List.of(CounterName.of(CounterType.RX_PACKETS, 0))).packedBase(),
            "a registry that others read is counted through its blocks");
    }

    @Test
    void aPackedRegistryCountsThroughItsBlocksWithoutLimitAndHasNoReader() {
        final CounterRegistry registry = CounterRegistry.packed();
        final List<CounterName> names = List.of(CounterName.of(CounterType.RX_PACKETS, 0), CounterName.of(CounterType.RX_BYTES, 0));
        final CounterBlock[] ports = new CounterBlock[2000];
        for (int port = 0; port < ports.length; port++) {
            ports[port] = registry.block("port " + port, names);
            ports[port].increment(0);
            ports[port].add(1, port);
        }
        assertEquals(4000, registry.allocated(), "far more than one block of Agrona's layout holds, none lost");
        assertEquals(Integer.MAX_VALUE, registry.capacity());
        assertEquals(1, ports[1999].get(0));
        assertEquals(1999, ports[1999].get(1));
        assertEquals(1, ports[0].get(0), "each block counts in slots of its own");
        assertThrows(IllegalStateException.class, registry::reader);
    }

    @Test
    void aReaderMadeBeforeABlockSeesItsNameAndValueAndLaterReadersKeepEveryName() {
        final CounterRegistry registry = CounterRegistry.inMemory(4);
        registry.block("egress", List.of(CounterName.of(CounterType.TX_PACKETS, 1))).add(0, 7);
        final CountersReader early = registry.reader();
        registry.block("ingress-1", List.of(new CounterName(CounterType.TRIM_PACKETS, 2, 1, "dod"))).increment(0);

        final List<String> labels = new ArrayList<>();
        early.forEach((CountersReader.MetaData) (id, type, key, label) -> labels.add(label));
        assertEquals(List.of("txPackets port 1 (egress)", "trimPackets port 2 dod (ingress-1)"), labels);
        final CounterTotals totals = CounterTotals.read(registry.reader());
        assertEquals(7, totals.get(1, CounterType.TX_PACKETS));
        assertEquals(java.util.Map.of("dod", 1L), totals.byName(2, CounterType.TRIM_PACKETS));
    }

    @Test
    void aReaderOnAnotherThreadSeesTheOneWritersCountsGrowInOrderAndEndExact() throws InterruptedException {
        final CounterRegistry registry = CounterRegistry.inMemory(2);
        final CounterBlock block = registry.block("writer", List.of(CounterName.of(CounterType.RX_PACKETS, 0), CounterName.of(CounterType.RX_BYTES, 0)));
        final CountersReader reader = registry.reader();
        final long increments = 1_000_000;
        final Thread writer = new Thread(() -> {
            for (long i = 0; i < increments; i++) {
                block.increment(0);
                block.add(1, 2);
            }
        });
        writer.start();
        long last = 0;
        while (writer.isAlive()) {
            final long bytes = reader.getCounterValue(1);
            final long packets = reader.getCounterValue(0);
            assertTrue(packets >= last, "a count never goes back");
            // The packets are stored before the bytes: a reader that sees the bytes sees the packets that came first.
            assertTrue(packets * 2 >= bytes, "bytes " + bytes + " ahead of packets " + packets);
            last = packets;
        }
        writer.join();
        assertEquals(increments, reader.getCounterValue(0));
        assertEquals(2 * increments, reader.getCounterValue(1));
    }

    @Test
    void anotherMappingOfTheFileReadsTheLabelledValuesLiveAndCloseDeletesIt() throws IOException {
        final Path file = dir.resolve("switch.counters");
        final CounterRegistry registry = CounterRegistry.mapped(file, 4);
        final CounterBlock block = registry.block("pipelines-1", List.of(CounterName.of(CounterType.TX_PACKETS, 7),
            new CounterName(CounterType.TRIM_PACKETS, 7, 2, "dod")));
        block.add(0, 41);
        // As another process would: its own read-only mapping of the file, through Agrona's reader.
        final CountersReader other = CounterFile.open(file);
        block.increment(0);
        block.increment(1);
        final CounterTotals totals = CounterTotals.read(other);
        assertEquals(42, totals.get(7, CounterType.TX_PACKETS));
        assertEquals(java.util.Map.of(2, 1L), totals.byIndex(7, CounterType.TRIM_PACKETS));
        assertEquals("dod", totals.name(7, CounterType.TRIM_PACKETS, 2));
        assertEquals("trimPackets port 7 dod (pipelines-1)", other.getCounterLabel(1));
        assertEquals(CounterType.TRIM_PACKETS.id(), other.getCounterTypeId(1));

        registry.close();
        assertFalse(Files.exists(file), "a stopped switch leaves no counters behind");
        assertEquals(42, other.getCounterValue(0), "a reader that still maps it keeps its last values");
        assertThrows(NoSuchFileException.class, () -> CounterFile.open(file));
    }

    @Test
    void aPortTheSwitchDoesNotHaveYetCountsOutsideTheFileUntilShownWithWhatItCounted() throws IOException {
        final Path file = dir.resolve("waiting.counters");
        try (CounterRegistry registry = CounterRegistry.mapped(file, 8, port -> port >= 2)) {
            final CounterBlock egress = registry.block("egress", List.of(CounterName.of(CounterType.TX_PACKETS, 1),
                CounterName.of(CounterType.TX_PACKETS, 5), new CounterName(CounterType.DROPS, 5, 3, "queueFull")));
            egress.add(0, 10);
            egress.add(1, 4);
            egress.increment(2);
            final CountersReader other = CounterFile.open(file);
            assertEquals(java.util.Set.of(1), CounterTotals.read(other).ports(), "port 5's counters are not in the file yet");
            assertEquals(1, registry.allocated());
            assertEquals(2, registry.waiting());
            assertEquals(4, egress.get(1), "it counts all the same");

            registry.show(5);
            egress.increment(1);
            final CounterBlock later = registry.block("sockets-0", List.of(CounterName.of(CounterType.RX_PACKETS, 5)));
            later.add(0, 7);
            final CounterTotals totals = CounterTotals.read(other);
            assertEquals(java.util.Set.of(1, 5), totals.ports());
            assertEquals(5, totals.get(5, CounterType.TX_PACKETS), "what it counted before, and after");
            assertEquals(java.util.Map.of("queueFull", 1L), totals.byName(5, CounterType.DROPS));
            assertEquals(7, totals.get(5, CounterType.RX_PACKETS), "a counter made once the port is shown goes straight in");
            assertEquals(10, totals.get(1, CounterType.TX_PACKETS));
            assertEquals(0, registry.waiting());
            registry.show(5);
            assertEquals(4, registry.allocated(), "shown once");

            registry.block("gauges", List.of(CounterName.of(CounterType.TX_PACKETS, 6), CounterName.of(CounterType.RX_PACKETS, 6),
                CounterName.of(CounterType.TX_BYTES, 6), CounterName.of(CounterType.RX_BYTES, 6), CounterName.of(CounterType.DROPS, 6),
                CounterName.of(CounterType.TRIM_PACKETS, 6)));
            final IllegalStateException full = assertThrows(IllegalStateException.class, () -> registry.show(6));
            assertEquals("the counters registry is full: 6 more counters for port 6, 4 of 8 left", full.getMessage());
            assertEquals(6, registry.waiting(), "a port that did not fit still waits");
        }
    }

    @Test
    void aFileAnotherRegistryHoldsIsRefusedAndLeftAsItWas() throws IOException {
        final Path file = dir.resolve("held.counters");
        try (CounterRegistry first = CounterRegistry.mapped(file, 2)) {
            first.block("a", List.of(CounterName.of(CounterType.RX_PACKETS, 0))).add(0, 9);
            final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> CounterRegistry.mapped(file, 2));
            assertTrue(refused.getMessage().contains("counters file " + file + " is in use"), refused.getMessage());
            assertEquals(9, CounterTotals.read(CounterFile.open(file)).get(0, CounterType.RX_PACKETS), "the first switch's counters are intact");
        }
    }

    @Test
    void aFileLeftBehindIsReplacedAndAFileThatIsNotCountersIsNamedSo() throws IOException {
        final Path stale = dir.resolve("stale.counters");
        Files.write(stale, new byte[8192]);
        final IOException notCounters = assertThrows(IOException.class, () -> CounterFile.open(stale));
        assertEquals(stale + " is not a switch's counters file (no trimswitch counters header)", notCounters.getMessage());
        assertTrue(assertThrows(IOException.class, () -> CounterFile.open(dir)).getMessage() != null);
        try (CounterRegistry registry = CounterRegistry.mapped(stale, 1)) {
            registry.block("a", List.of(CounterName.of(CounterType.RX_PACKETS, 0))).increment(0);
            assertEquals(1, CounterTotals.read(CounterFile.open(stale)).get(0, CounterType.RX_PACKETS));
        }
    }

    @Test
    void aFullRegistrySaysHowFull() {
        final CounterRegistry registry = CounterRegistry.inMemory(1);
        final IllegalStateException full = assertThrows(IllegalStateException.class,
            () -> registry.block("w", List.of(CounterName.of(CounterType.RX_PACKETS, 0), CounterName.of(CounterType.RX_BYTES, 0))));
        assertEquals("the counters registry is full: 2 more counters for w, 1 of 1 left", full.getMessage());
    }
}
