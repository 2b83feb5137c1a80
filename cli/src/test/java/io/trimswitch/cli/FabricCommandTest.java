package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertTrue(result.out().contains("3 flows, 1200000 bytes in 4086-byte packets, UET reps"), result.out());
        assertTrue(result.out().contains("flows completed        3 of 3"), result.out());
        final String report = Files.readString(json);
        assertTrue(report.contains("\"transport\" : \"uet\""), report);
        assertTrue(report.contains("\"bdpPackets\" : 43"), report);
        assertTrue(report.contains("\"loadBalancer\" : \"reps\""), report);
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
        "fabric --leaves 0                                    | topology.leaves must be 1..256, got 0",
        "fabric --leaves -3                                   | topology.leaves must be 1..256, got -3",
        "fabric --spines 0                                    | topology.spines must be at least 1 when there is more than one leaf",
        "fabric --hosts-per-leaf 5000                         | topology.hostsPerLeaf must be 1..1024",
        "fabric --host-rate NaN                               | topology.hostRateGbps must be",
        "fabric --uplink-rate Infinity                        | topology.uplinkRateGbps must be",
        "fabric --latency-ns -1                               | topology.linkLatencyNs must be 0..1000000 ns",
        "fabric --routing random                              | routing must be one of spray, ecmp, got 'random'",
        "fabric --workload chaos                              | workload.kind must be one of permutation, incast, all-to-all, flows",
        "fabric --leaf fancy                                  | leaf: unknown mechanism 'fancy': expected one of ideal, mod, dod, tofino, tofino2",
        "fabric --spine ''                                    | spine: unknown mechanism ''",
        "fabric --fail 9:0                                    | topology.failedLinks[0].leaf must be 0..3, got 9",
        "fabric --fail x                                      | --fail takes LEAF:SPINE or LEAF:SPINE@US (when it fails, µs), got 'x'",
        "fabric --fail 0:1@soon                               | got '0:1@soon'",
        "fabric --fail 0:1@-5                                 | topology.failedLinks[0].atUs must be 0..100000 µs, got -5.0",
        "fabric --fail 0:1@NaN                                | topology.failedLinks[0].atUs must be",
        "fabric --fail 0:1 --fail 0:1                         | names leaf 0 to spine 1 twice",
        "fabric --fail 0:0 --fail 0:1 --fail 0:2 --fail 0:3   | leave leaf 0 and leaf 1 without a spine that reaches both",
        "fabric --workload incast --racks 9                   | workload.racks must be 1..3, got 9",
        "fabric --workload incast --leaves 1 --spines 0       | needs at least 2 leaves",
        "fabric --packets 0                                   | workload.packets must be 1..65535, got 0",
        "fabric --workload flows --load 0                     | workload.load must be",
        "fabric --workload flows --load NaN                   | workload.load must be",
        "fabric --workload flows --flow-sizes DIR/none.csv    | no such file",
        "fabric --workload all-to-all --hosts-per-leaf 100    | at most 65536 fit",
        "fabric --initial-window 0                            | transport.initialWindowPackets must be 1..65535, got 0",
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
        "fabric --matrix HTSIM --transport uet --load-balancer ecmp    | --load-balancer must be one of reps, oblivious, single, got 'ecmp'",
        "fabric --matrix HTSIM --transport uet --paths 3               | --paths must be a power of two of 1..65536 entropies for UET hosts, got 3",
        "fabric --matrix HTSIM --transport uet --ecn 9 5               | --ecn must be LO HI with 0 <= LO <= HI <= 65535 packets, got 9 5",
        "fabric --matrix HTSIM --transport uet --ack-bytes 0           | --ack-bytes must be",
        "fabric --matrix HTSIM --transport uet --rto-us -1             | --rto-us must be above 0"})
    void isRefusedInOneLine(final String commandLine, final String expected) throws IOException {
        final Path file = dir.resolve("input");
        Files.writeString(file, "ports:\n  - bind: 127.0.0.1:0\n");
        Files.writeString(dir.resolve("m.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size 3000\n");
        Files.writeString(dir.resolve("bad.cm"), "Nodes 16\nConnections 1\n0->9 start 0 size -5\n");
        Files.writeString(dir.resolve("bad.topo"), "Nodes 16\nTiers 2\nPodsize 16\nTier 0\nRadix 4\n");
        final String[] args = commandLine.strip().replace("''", "").replace("DIR", dir.toString()).replace("FILE", file.toString())
            .replace("HTSIM", dir.resolve("m.cm").toString()).replace("BADMATRIX", dir.resolve("bad.cm").toString())
            .replace("BADTOPO", dir.resolve("bad.topo").toString()).split("\\s+");
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
