package io.trimswitch.cli;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.UdpHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayCommandTest {
    @TempDir
    Path dir;

    private void assertOneLineError(final io.trimswitch.cli.Cli.Result result, final String expected) {
        assertEquals(2, result.exit(), result.err());
        assertEquals(1, result.err().strip().lines().count(), result.err());
        assertTrue(result.err().contains(expected), "expected '" + expected + "' in " + result.err());
        assertTrue(!result.err().contains("\tat "), "no stack trace");
    }

    @Test
    void replayingTheSameCaptureTwiceGivesIdenticalBytes() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 4, 50, 0);
        for (final String run : new String[] {"a", "b"}) {
            final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--out", dir.resolve(run + ".pcapng").toString(),
                "--out-dir", dir.resolve(run).toString());
            assertEquals(0, result.exit(), result.err());
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.pcapng")), Files.readAllBytes(dir.resolve("b.pcapng")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/4_out.pcap")), Files.readAllBytes(dir.resolve("b/4_out.pcap")));
    }

    @Test
    void untrimmedPacketsLeaveByteIdenticalAndTrimmedOnesAsValid64ByteHeaders() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 4, 50, 0);
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--out", dir.resolve("out.pcapng").toString());
        assertEquals(0, result.exit(), result.err());

        final List<List<byte[]>> in = ReplayFixtures.frames(input, 5);
        final List<List<byte[]>> out = ReplayFixtures.frames(dir.resolve("out.pcapng"), 64);
        final Set<String> sent = new HashSet<>();
        for (final List<byte[]> frames : in) {
            frames.forEach(frame -> sent.add(Arrays.toString(frame)));
        }
        assertEquals(200, out.get(4).size(), "every incast packet reaches port 4, whole or trimmed");
        assertEquals(5, out.get(9).size());
        int trimmed = 0;
        for (final List<byte[]> frames : out) {
            for (final byte[] frame : frames) {
                if (frame.length == 64) {
                    trimmed++;
                    final UnsafeBuffer header = new UnsafeBuffer(frame);
                    assertEquals(11, Ipv4Header.dscp(header, EthernetHeader.LENGTH));
                    assertEquals(50, Ipv4Header.totalLength(header, EthernetHeader.LENGTH));
                    assertTrue(Ipv4Header.checksumValid(header, EthernetHeader.LENGTH));
                    assertTrue((NdpHeader.flags(header, EthernetHeader.LENGTH + 20 + UdpHeader.LENGTH) & NdpHeader.FLAG_CHOPPED) != 0);
                } else {
                    assertTrue(sent.contains(Arrays.toString(frame)), "an untrimmed frame left exactly as it came in");
                }
            }
        }
        assertTrue(trimmed > 100, "a 4:1 incast at line rate trims: " + trimmed);
        assertTrue(result.out().contains("port 4: 200, " + trimmed + " trimmed"), result.out());
    }

    @Test
    void throughTheRealTimeDataplaneEveryPacketLeavesWholeOrTrimmedMuchAsInVirtualTime() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 4, 50, 0);
        final io.trimswitch.cli.Cli.Result virtual = trimswitch("replay", "--in", input.toString(), "--out", dir.resolve("virtual.pcapng").toString());
        final io.trimswitch.cli.Cli.Result real = trimswitch("replay", "--in", input.toString(), "--clock", "real", "--dilation", "2000",
            "--out", dir.resolve("real.pcapng").toString());
        assertEquals(0, real.exit(), real.err());

        final List<List<byte[]>> out = ReplayFixtures.frames(dir.resolve("real.pcapng"), 64);
        assertEquals(200, out.get(4).size(), "every incast packet reaches port 4, whole or trimmed");
        assertEquals(5, out.get(9).size());
        final long trimmedReal = out.get(4).stream().filter(frame -> frame.length == 64).count();
        final long trimmedVirtual = ReplayFixtures.frames(dir.resolve("virtual.pcapng"), 64).get(4).stream().filter(frame -> frame.length == 64).count();
        assertEquals(trimmedVirtual, trimmedReal, 0.1 * trimmedVirtual, "trims within 10 % of virtual time's; " + virtual.out() + real.out());
        assertTrue(real.out().contains("real"), real.out());
    }

    @Test
    void aCaptureOfJumboFramesReplaysWholeInBothClocks() throws IOException {
        final Path caps = dir.resolve("caps");
        final io.trimswitch.cli.Cli.Result scenario = trimswitch("scenario", "--packet-bytes", "9018", "--packets", "5", "--mechanism", "tofino",
            "--no-ideal", "--pcap-dir", caps.toString());
        assertEquals(0, scenario.exit(), scenario.err());
        final Path input = caps.resolve("tofino/port01-rx.pcap");
        for (final String clock : new String[] {"virtual", "real"}) {
            final Path out = dir.resolve(clock + ".pcapng");
            final io.trimswitch.cli.Cli.Result replay = clock.equals("real")
                ? trimswitch("replay", "--in", "1=" + input, "--clock", "real", "--dilation", "2000", "--out", out.toString())
                : trimswitch("replay", "--in", "1=" + input, "--out", out.toString());
            assertEquals(0, replay.exit(), replay.err());
            final List<byte[]> sent = ReplayFixtures.frames(out, 64).stream().flatMap(List::stream).toList();
            assertEquals(5, sent.size(), clock + ": every frame of the capture leaves, none dropped as oversize\n" + replay.out());
            assertTrue(sent.stream().anyMatch(frame -> frame.length == 9018), clock + ": a jumbo frame leaves whole");
        }
    }

    @Test
    void lineRateTimingSendsBackToBackWhateverTheCaptureTimestamps() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 1, 20, 10_000);
        assertEquals(0, trimswitch("replay", "--in", input.toString(), "--out", dir.resolve("capture.pcapng").toString()).exit());
        assertEquals(0, trimswitch("replay", "--in", input.toString(), "--timing", "line-rate", "--out", dir.resolve("line.pcapng").toString()).exit());
        assertEquals(0, trimswitch("replay", "--in", input.toString(), "--speed", "2", "--out", dir.resolve("fast.pcapng").toString()).exit());
        // sender 0 sends its 20 data packets to port 1
        final long[] capture = ReplayFixtures.timestamps(dir.resolve("capture.pcapng"), 1);
        final long[] line = ReplayFixtures.timestamps(dir.resolve("line.pcapng"), 1);
        final long[] fast = ReplayFixtures.timestamps(dir.resolve("fast.pcapng"), 1);
        assertEquals(20, capture.length);
        final int lastData = 19;
        assertEquals(19 * 10_000, capture[lastData] - capture[0], 1, "the capture's 10 µs gaps");
        assertEquals(19 * 120, line[lastData] - line[0], 1, "1500 B every 120 ns at 100 Gb/s");
        assertEquals(19 * 5_000, fast[lastData] - fast[0], 1, "twice as fast");
        assertEquals(1_700_000_000_000_000_000L + 120 + 120, capture[0], "stamped from the capture's own time, on arrival plus transmission");
    }

    @Test
    void aPcapPerPortReplaysExactlyLikeOnePcapngOfTheSamePackets() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 2, 30, 0);
        assertEquals(0, trimswitch("replay", "--in", input.toString(), "--out", dir.resolve("one.pcapng").toString()).exit());
        final io.trimswitch.cli.Cli.Result split = trimswitch("replay", "--in", input.toString(), "--out-dir", dir.resolve("split").toString());
        assertEquals(0, split.exit(), split.err());
        assertEquals(60, ReplayFixtures.frames(dir.resolve("split/2_out.pcap"), 1).get(0).size());
    }

    @Test
    void theSwitchConfigurationComesFromTheSameYamlAsRun() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 4, 50, 0);
        final Path yaml = Files.writeString(dir.resolve("switch.yaml"), "mechanism: ideal\ntrim:\n  sizeBytes: 128\n");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--config", yaml.toString(),
            "--out", dir.resolve("out.pcapng").toString(), "--json", dir.resolve("report.json").toString());
        assertEquals(0, result.exit(), result.err());
        assertTrue(Files.readString(dir.resolve("report.json")).contains("\"mechanism\" : \"ideal\""));
        assertTrue(ReplayFixtures.frames(dir.resolve("out.pcapng"), 64).get(4).stream().anyMatch(frame -> frame.length == 128));
    }

    @Test
    void trimsTowardsAFabricPortCarryTheFabricDscpAndAFlowThatOptsOutIsNeverTrimmed() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 4, 50, 0);
        final Path yaml = Files.writeString(dir.resolve("uec.yaml"),
            "trim:\n  fabricDscp: 12\n  fabricPorts: [4]\n  disable:\n    - source: 10.0.0.0/24\n");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--config", yaml.toString(),
            "--out", dir.resolve("out.pcapng").toString());
        assertEquals(0, result.exit(), result.err());
        int trimmed = 0;
        for (final byte[] frame : ReplayFixtures.frames(dir.resolve("out.pcapng"), 64).get(4)) {
            final int dscp = (frame[EthernetHeader.LENGTH + 1] & 0xFF) >>> 2;
            final int sourceSubnet = frame[EthernetHeader.LENGTH + 12 + 2];
            if (frame.length == 64) {
                trimmed++;
                assertEquals(12, dscp, "trimmed towards fabric port 4");
                assertTrue(sourceSubnet != 0, "the flow from 10.0.0.0/24 opted out of trimming");
            } else {
                assertEquals(10, dscp);
            }
        }
        assertTrue(trimmed > 50, "the other flows are trimmed: " + trimmed);
    }

    @Test
    void ipv6PacketsBehindAnExtensionHeaderTheSwitchCannotStepOverAreForwardedUntrimmedAndCounted() throws IOException {
        final Path input = dir.resolve("ah.pcapng");
        final org.agrona.concurrent.UnsafeBuffer frame = new org.agrona.concurrent.UnsafeBuffer(new byte[1500]);
        EthernetHeader.destination(frame, 0, 0x0200_0000_0004L);
        EthernetHeader.source(frame, 0, 0x0200_0000_0000L);
        EthernetHeader.etherType(frame, 0, EthernetHeader.ETHER_TYPE_IPV6);
        // DSCP 10, trimmable by its mark, but behind an authentication header (51).
        io.trimswitch.dataplane.codec.Ipv6Header.write(frame, EthernetHeader.LENGTH, 10, 1500 - 54, 51, 64, new byte[16], new byte[16]);
        try (io.trimswitch.dataplane.io.PcapngWriter writer = new io.trimswitch.dataplane.io.PcapngWriter(input, new String[] {"host"},
            new long[] {100_000_000_000L}, 0)) {
            for (int i = 0; i < 40; i++) {
                writer.write(0, 0, frame, 0, 1500);
            }
        }
        final Path json = dir.resolve("ah.json");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--json", json.toString());
        assertEquals(0, result.exit(), result.err());
        final com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertEquals(0, report.get("deliveredHeader").asLong(), "none is trimmed");
        assertEquals(40, report.get("deliveredWhole").asLong() + report.get("dropped").asLong());
        assertEquals(40, report.get("ports").get(0).get("untrimmableIpv6").asLong(), report.get("ports").toString());
    }

    @Test
    void anInterfaceWithNoSwitchPortIsNamedWithFileAndOffset() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("wide.pcapng"), 70, 1, 0);
        assertOneLineError(trimswitch("replay", "--in", input.toString()), "wide.pcapng at byte ");
        assertOneLineError(trimswitch("replay", "--in", input.toString()), "packet on interface 64, which has no switch port");
    }

    @Test
    void aTruncatedCaptureIsOneLineNamingFileAndOffset() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 1, 3, 0);
        final byte[] bytes = Files.readAllBytes(input);
        final Path cut = Files.write(dir.resolve("cut.pcapng"), Arrays.copyOf(bytes, bytes.length - 100));
        assertOneLineError(trimswitch("replay", "--in", cut.toString()), "cut.pcapng at byte ");
    }

    @Test
    void badArgumentsAreOneClearLine() throws IOException {
        final Path input = ReplayFixtures.incast(dir.resolve("in.pcapng"), 1, 1, 0);
        assertOneLineError(trimswitch("replay", "--in", dir.resolve("none.pcap").toString()), "none.pcap: no such file");
        assertOneLineError(trimswitch("replay", "--in", input.toString(), "--timing", "fast"), "--timing must be capture or line-rate, got 'fast'");
        assertOneLineError(trimswitch("replay", "--in", input.toString(), "--speed", "0"), "--speed must be a positive number");
        assertOneLineError(trimswitch("replay", "--in", "x=" + input), "'x' is not a port number");
        assertOneLineError(trimswitch("replay", "--in", "64=" + input), "the switch has ports 0..63");
        assertOneLineError(trimswitch("replay"), "Missing required option: '--in=[PORT=]FILE'");
    }

    @Test
    void aReplayedFrameThatLooksLikeAnNdpControlPacketIsDeliveredAndCountedLikeAnyOther() throws IOException {
        final Path input = dir.resolve("control.pcapng");
        final org.agrona.concurrent.UnsafeBuffer frame = new org.agrona.concurrent.UnsafeBuffer(new byte[200]);
        try (io.trimswitch.dataplane.io.PcapngWriter writer = new io.trimswitch.dataplane.io.PcapngWriter(input, new String[] {"host"},
            new long[] {100_000_000_000L}, 1_700_000_000_000_000_000L)) {
            for (int seq = 0; seq < 3; seq++) {
                // UDP port 666 with the ACK, NACK or PULL bit in the shim's flags: control packets, had an NDP host sent them.
                io.trimswitch.dataplane.packet.WorkloadFrames.write(frame, 0, 200, 0, 1, 1, 1, 0,
                    io.trimswitch.dataplane.codec.NdpHeader.FLAG_ACK << seq, seq, 0, 0, 666);
                writer.write(0, seq * 1_000_000L, frame, 0, 200);
            }
        }
        final Path json = dir.resolve("control.json");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", input.toString(), "--json", json.toString());
        assertEquals(0, result.exit(), result.out() + result.err());
        final com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertEquals(3, report.get("sent").asLong());
        assertEquals(3, report.get("deliveredWhole").asLong() + report.get("deliveredHeader").asLong(), report.toString());
        assertTrue(report.get("conservation").asBoolean(), "nothing unaccounted for");
    }
}
