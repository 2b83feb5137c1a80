package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code trimswitch fabric} as a user meets it: its table, its JSON, and one line for every bad value. */
class FabricCommandTest {
    @TempDir
    Path dir;

    @Test
    void aNetworkFileRunsAndItsReportNamesEveryTier() throws IOException {
        final Path file = dir.resolve("fabric.yaml");
        Files.writeString(file, """
            topology:
              leaves: 3
              spines: 2
              hostsPerLeaf: 2
              uplinkRateGbps: 50
            routing: ecmp
            leaf:
              mechanism: dod
            spine:
              mechanism: tofino
            workload:
              kind: incast
              racks: 2
              packets: 100
            """);
        final Path json = dir.resolve("report.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--config", file.toString(), "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("3 leaves × 2 hosts, 2 spines, 100 Gb/s hosts, 50 Gb/s uplinks, ecmp\n"), result.out());
        assertTrue(result.out().contains("incast of 2 racks × 2 hosts into host 0, 100 packets each"), result.out());
        assertTrue(result.out().contains("flows completed        4 of 4"), result.out());
        assertTrue(result.out().contains("leaf (dod)  spine (tofino)"), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"conservation\" : true"), report);
        assertTrue(report.contains("\"name\" : \"spine1\""), report);
        assertTrue(report.contains("\"2\" : \"spine0\""), "leaf ports after the hosts go up to the spines");
    }

    @Test
    void ultraEthernetHostsRunAnHtsimMatrixAndReportWhatTheyDid() throws IOException {
        final Path matrix = dir.resolve("incast.cm");
        Files.writeString(matrix, "Nodes 16\nConnections 3\n0->15 start 0 size 400000\n4->15 start 0 size 400000\n8->15 start 0 size 400000\n");
        final Path json = dir.resolve("uet.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--matrix", matrix.toString(), "--transport", "uet", "--mechanism", "ideal",
            "--mtu", "4086", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("3 flows, 1200000 bytes in 4086-byte packets, UET mixed"), result.out());
        assertTrue(result.out().contains("flows completed        3 of 3"), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"transport\" : \"uet\""), report);
        assertTrue(report.contains("\"bdpPackets\" : 43"), report);
        assertTrue(report.contains("\"loadBalancer\" : \"mixed\""), report);
        assertFalse(report.contains("rccc"), "NSCC alone reports no credit");
    }

    @Test
    void receiversPaceTheirSendersWithCreditAndTheReportCountsThePulls() throws IOException {
        final Path matrix = dir.resolve("one.cm");
        Files.writeString(matrix, "Nodes 16\nConnections 1\n0->13 id 1 start 0 size 2000000\n");
        final Path json = dir.resolve("rccc.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--matrix", matrix.toString(), "--transport", "uet", "--mechanism", "ideal",
            "--mtu", "4086", "--cc", "receiver", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        final com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        final com.fasterxml.jackson.databind.JsonNode rccc = report.get("uet").get("rccc");
        assertEquals("receiver", rccc.get("cc").asText());
        assertFalse(rccc.get("oversubscribedCc").asBoolean());
        assertTrue(rccc.get("pulls").asLong() > 100, rccc.toString());
        // htsim_uec -receiver_cc_only finishes this flow at 177.4 µs.
        final double fct = report.get("flows").get(0).get("fctUs").asDouble();
        assertTrue(fct > 175 && fct < 180, fct + " µs");
    }

    @Test
    void endUsStopsTheRunAndTheFlowsLeftUnfinishedAreCountedAndListed() throws IOException {
        final Path matrix = dir.resolve("two.cm");
        Files.writeString(matrix, "Nodes 16\nConnections 2\n0->15 start 0 size 40000\n4->13 id 7 start 0 size 4000000\n");
        final Path json = dir.resolve("end.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--matrix", matrix.toString(), "--transport", "uet", "--mechanism", "ideal",
            "--mtu", "4086", "--end-us", "100", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("flows completed        1 of 2"), result.out());
        assertTrue(result.out().contains("unfinished at 100.0 µs    1 of 2 flows"), result.out());
        assertTrue(result.out().lines().anyMatch(l -> l.startsWith("  4->13 id 7  4000000 bytes, started at 0.0 µs, ")), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"incomplete\" : 1"), report);
        assertTrue(report.contains("\"maxDurationUs\" : 100.0"), report);
        assertTrue(report.contains("\"unfinished\" : [ {\n    \"src\" : 4,\n    \"dst\" : 13,\n    \"id\" : 7"), report);
        assertTrue(report.contains("\"conservation\" : true"), report);
    }

    @Test
    void withConnectionReuseTheLinesOfOneIdAreMessagesSentInTurnOnOneConnection() throws IOException {
        final Path matrix = dir.resolve("messages.cm");
        Files.writeString(matrix, "Nodes 16\nConnections 3\n0->15 id 3 msg start 0 size 400000\n0->15 id 3 msg start 100 size 40860\n"
            + "1->14 start 0 size 40860\n");
        final Path json = dir.resolve("messages.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--matrix", matrix.toString(), "--transport", "uet", "--mechanism", "ideal",
            "--mtu", "4086", "--conn-reuse", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("messages.cm: 2 flows, 3 messages, 481720 bytes"), result.out());
        assertTrue(result.out().contains("flows completed        2 of 2"), result.out());
        // Measured: the first message ends at 46.9 µs (as one 400 kB flow alone), the second, queued at 100 µs, 17.0 µs later.
        assertTrue(result.out().contains("messages completed     3 of 3 on 2 connections, completion time (µs) p50 17.7  max 46.9"), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"sizeBytes\" : 440860"), report);
        assertTrue(report.contains("\"startUs\" : 100.0,\n      \"finishUs\" : 117.011,\n      \"fctUs\" : 17.011"), report);
        assertTrue(report.contains("\"finishUs\" : 46.891"), report);
    }

    @Test
    void uetQueuesCountWholePacketsAsHtsimUecsDo() throws IOException {
        final Path matrix = dir.resolve("one.cm");
        Files.writeString(matrix, "Nodes 16\nConnections 1\n0->15 start 0 size 40000\n");
        final Path json = dir.resolve("q.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--matrix", matrix.toString(), "--transport", "uet", "--mechanism", "ideal",
            "--mtu", "4086", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(Files.readString(json).contains("\"queuePackets\" : 43"), "one BDP of 4150-byte packets, as htsim_uec's default");
        assertFalse(result.out().contains("unfinished"), result.out());
    }

    @Test
    void htsimsFilesRunAndTheReportGivesEachFlowsTimesAndId() throws IOException {
        final Path topology = dir.resolve("leafspine.topo");
        Files.writeString(topology, """
            Nodes 8
            Tiers 2
            Podsize 8
            Tier 0
            Downlink_speed_Gbps 100
            Radix_Down 4
            Radix_Up 4
            Downlink_Latency_ns 1000
            Tier 1
            Downlink_speed_Gbps 100
            Radix_Down 2
            Downlink_Latency_ns 1000
            """);
        final Path matrix = dir.resolve("incast.cm");
        Files.writeString(matrix, "Nodes 8\nConnections 3\n4->0 id 7 start 0 size 9000\n5->0 start 2.5 size 9000\n6->0 start 0 size 9000\n");
        final Path json = dir.resolve("report.json");
        final Cli.Result result = Cli.trimswitch("fabric", "--topology", topology.toString(), "--matrix", matrix.toString(), "--mechanism", "ideal",
            "--mtu", "1500", "--queue-packets", "16", "--initial-window", "4", "--paths", "2", "--fail", "1", "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("2-tier fat tree: 8 hosts, 2 racks of 4, 4 spines, 100 Gb/s hosts, 1 links at 25 %, spray\n"), result.out());
        assertTrue(result.out().contains("flows completed        3 of 3"), result.out());
        assertTrue(result.out().contains("tor (ideal)  agg (ideal)"), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"id\" : 7,"), report);
        assertTrue(report.contains("\"startUs\" : 2.5,"), report);
        assertTrue(report.contains("\"fctUs\" : "), report);
        assertTrue(report.contains("\"finishUs\" : "), report);
        assertTrue(report.contains("\"paths\" : 2,"), report);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fabric --leaves 0                                    | --leaves must be 1..256, got 0 (topology.leaves)",
        "fabric --leaves -3                                   | --leaves must be 1..256, got -3 (topology.leaves)",
        "fabric --spines 0                                    | --spines must be at least 1 when there is more than one leaf",
        "fabric --hosts-per-leaf 5000                         | --hosts-per-leaf must be 1..1024",
        "fabric --host-rate NaN                               | --host-rate must be",
        "fabric --uplink-rate Infinity                        | --uplink-rate must be",
        "fabric --latency-ns -1                               | --latency-ns must be 0..1000000 ns",
        "fabric --routing random                              | routing must be one of spray, ecmp, got 'random'",
        "fabric --workload chaos                              | --workload must be one of permutation, incast, all-to-all, flows",
        "fabric --leaf fancy                                  | leaf: unknown mechanism 'fancy': expected one of ideal, mod, dod, tofino, tofino2",
        "fabric --spine ''                                    | spine: unknown mechanism ''",
        "fabric --fail 9:0                                    | topology.failedLinks[0].leaf must be 0..3, got 9",
        "fabric --fail x                                      | --fail takes LEAF:SPINE or LEAF:SPINE@US (when it fails, µs), got 'x'",
        "fabric --fail 0:1@soon                               | got '0:1@soon'",
        "fabric --fail 0:1@-5                                 | topology.failedLinks[0].atUs must be 0..100000 µs, got -5.0",
        "fabric --fail 0:1@NaN                                | topology.failedLinks[0].atUs must be",
        "fabric --fail 0:1 --fail 0:1                         | names leaf 0 to spine 1 twice",
        "fabric --fail 0:0 --fail 0:1 --fail 0:2 --fail 0:3   | leave leaf 0 and leaf 1 without a spine that reaches both",
        "fabric --workload incast --racks 9                   | --racks must be 1..3, got 9 (workload.racks)",
        "fabric --workload incast --leaves 1 --spines 0       | needs at least 2 leaves",
        "fabric --packets 0                                   | --packets must be 1..65535, got 0 (workload.packets)",
        "fabric --packets -5                                  | --packets must be 1..65535, got -5 (workload.packets)",
        "fabric --seed 123456789012345678901                  | --seed': '123456789012345678901' is too large (max 9223372036854775807)",
        "fabric --workload flows --load 0                     | --load must be",
        "fabric --workload flows --load NaN                   | --load must be",
        "fabric --workload flows --flow-sizes DIR/none.csv    | no such file",
        "fabric --workload all-to-all --hosts-per-leaf 100    | at most 65536 fit",
        "fabric --initial-window 0                            | --initial-window must be 1..65535, got 0 (transport.initialWindowPackets)",
        "fabric --config DIR                                  | a directory, not a settings file",
        "fabric --config FILE                                 | unknown key 'ports'",
        "fabric --json DIR                                    | a directory; name a file",
        "fabric --mtu 1500                                    | --mtu applies to an htsim experiment: give its connection matrix with --matrix",
        "fabric --paths 2                                     | --paths applies to an htsim experiment",
        "fabric --topology DIR/none.topo                      | --topology needs --matrix: the flows to run across it",
        "fabric --matrix DIR/none.cm                          | none.cm: no such file",
        "fabric --matrix HTSIM --leaves 2                     | --leaves does not apply with --matrix",
        "fabric --matrix HTSIM --fail 0:1                     | --fail takes one number with --matrix (htsim's -failed: links at a quarter of their rate), got '0:1'",
        "fabric --matrix HTSIM --queue-packets 0              | --queue-packets must be 1..65535, got 0",
        "fabric --matrix HTSIM --mtu 8955                     | --mtu must be 64..8954, got 8955",
        "fabric --matrix HUGEMATRIX                           | huge.cm line 3: size is too large (max 1099511627776), got 99999999999999999999",
        "fabric --end-us 50                                   | --end-us applies to an htsim experiment: give its connection matrix with --matrix",
        "fabric --matrix HTSIM --end-us 0                     | --end-us must be above 0 and at most 8000000 µs (eight seconds of network time), got 0.0",
        "fabric --matrix HTSIM --end-us Infinity              | --end-us must be above 0 and at most 8000000 µs",
        "fabric --matrix HTSIM --conn-reuse                   | --conn-reuse applies to UET hosts: add --transport uet",
        "fabric --matrix TWOHOSTS --transport uet --conn-reuse | --conn-reuse: id 3 is 0->15 and 1->15; the messages of a connection share its two hosts",
        "fabric --matrix TRIGGERED --transport uet --conn-reuse | --conn-reuse: flow 0->9 names a trigger; triggers on messages are not modelled",
        "fabric --matrix HTSIM --mechanism fancy              | rack switches: unknown mechanism 'fancy'",
        "fabric --matrix BADMATRIX                            | bad.cm line 3: size is -5, outside 1..1099511627776",
        "fabric --topology BADTOPO --matrix HTSIM             | bad.topo line 5: unknown key 'Radix' (Nodes, Tiers, Podsize, Tier;",
        "fabric --transport uet                               | --transport applies to an htsim experiment",
        "fabric --target-delay-us 5                           | --target-delay-us applies to UET hosts: add --transport uet",
        "fabric --matrix HTSIM --load-balancer reps           | --load-balancer applies to UET hosts: add --transport uet",
        "fabric --matrix HTSIM --transport tcp                | --transport must be one of ndp, uet, got 'tcp'",
        "fabric --matrix HTSIM --transport uet --target-delay-us 0     | --target-delay-us must be above 0 and at most 10000 µs, got 0.0",
        "fabric --matrix HTSIM --transport uet --target-delay-us NaN   | --target-delay-us must be above 0",
        "fabric --matrix HTSIM --transport uet --initial-window 0      | --initial-window must be 1..65535 packets (a window below one packet never sends), got 0",
        "fabric --matrix HTSIM --transport uet --load-balancer ecmp    | --load-balancer must be one of reps, oblivious, single, bitmap, mixed, got 'ecmp'",
        "fabric --matrix HTSIM --transport uet --paths 3               | --paths must be a power of two of 1..65536 entropies for UET hosts, got 3",
        "fabric --matrix HTSIM --transport uet --ecn 9 5               | --ecn must be LO HI with 0 <= LO <= HI <= 65535 packets, got 9 5",
        "fabric --matrix HTSIM --transport uet --ack-bytes 0           | --ack-bytes must be",
        "fabric --matrix HTSIM --transport uet --rto-us -1             | --rto-us must be above 0",
        "fabric --matrix HTSIM --transport uet --cc rccc               | --cc must be one of sender, receiver, both, got 'rccc'",
        "fabric --matrix HTSIM --transport uet --oversubscribed-cc 1   | --oversubscribed-cc must be one of auto, on, off, got '1'",
        "fabric --matrix HTSIM --transport uet --oversubscribed-cc on  | --oversubscribed-cc on paces the receivers' pulls: it needs --cc receiver or both",
        "fabric --matrix HTSIM --cc receiver                           | --cc applies to UET hosts: add --transport uet"})
    void isRefusedInOneLine(final String commandLine, final String expected) throws IOException {
        final Path file = dir.resolve("input");
        Files.writeString(file, "ports:\n  - bind: 127.0.0.1:0\n");
        Files.writeString(dir.resolve("m.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size 3000\n");
        Files.writeString(dir.resolve("bad.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size -5\n");
        Files.writeString(dir.resolve("huge.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size 99999999999999999999\n");
        Files.writeString(dir.resolve("two.cm"), "Nodes 16\nConnections 2\n0->15 id 3 msg start 0 size 4000\n1->15 id 3 msg start 0 size 4000\n");
        Files.writeString(dir.resolve("trig.cm"), "Nodes 16\nConnections 2\nTriggers 1\n0->9 id 1 start 0 size 4000 send_done_trigger 1\n"
            + "1->2 id 2 trigger 1 size 4000\ntrigger id 1 oneshot\n");
        Files.writeString(dir.resolve("bad.topo"), "Nodes 16\nTiers 2\nPodsize 16\nTier 0\nRadix 4\n");
        final String[] args = commandLine.strip().replace("''", "").replace("DIR", dir.toString()).replace("FILE", file.toString())
            .replace("HTSIM", dir.resolve("m.cm").toString()).replace("BADMATRIX", dir.resolve("bad.cm").toString())
            .replace("HUGEMATRIX", dir.resolve("huge.cm").toString())
            .replace("BADTOPO", dir.resolve("bad.topo").toString()).replace("TWOHOSTS", dir.resolve("two.cm").toString())
            .replace("TRIGGERED", dir.resolve("trig.cm").toString()).split("\\s+");
        final String[] withEmpty = commandLine.contains("''") ? append(args, "") : args;
        final Cli.Result result = Cli.trimswitch(withEmpty);
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), commandLine + "\n" + result.out() + result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in: " + result.err());
        assertEquals("", result.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "'topology:\n  leaves: null\n'                    | may not be null",
        "'topology: null\n'                               | may not be null",
        "'routing: [spray]\n'                             | bad value for 'routing'",
        "'leaf:\n  fabric:\n    portsPerPipeline: 4\n'    | unknown key 'leaf.fabric.portsPerPipeline'",
        "'leaf:\n  fabric:\n    pipelines: 0\n'           | leaf.fabric.pipelines must be 1..64, got 0",
        "'spine:\n  fabric:\n    dataQueuePackets: -1\n'  | spine: fabric.dataQueuePackets must be",
        "'workload:\n  seed: 1.5\n'                       | bad value for 'workload.seed'",
        "'topology:\n  failedLinks: [null]\n'             | may not be null",
        "'workload:\n  kind: flows\n  flowSizes: \"\"\n'       | workload.flowSizes must name a CSV file of flow sizes, got ''",
        "'42\n'                                           | a YAML mapping"})
    void aBadNetworkFileIsRefusedInOneLine(final String yaml, final String expected) throws IOException {
        final Path file = dir.resolve("fabric.yaml");
        Files.writeString(file, yaml.replace("\\n", "\n"));
        final Cli.Result result = Cli.trimswitch("fabric", "--config", file.toString());
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), yaml + "\n" + result.out() + result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in: " + result.err());
    }

    private static String[] append(final String[] args, final String last) {
        final String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }

    @Test
    void aRunThatTrimmedNothingSaysSoInsteadOfAHeaderLatencyOfZero() {
        final Cli.Result run = Cli.trimswitch("fabric", "--packets", "10");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("header latency (ns)    none: no packet was trimmed to its header\n"), run.out());
    }
}
