package io.trimswitch.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.trimswitch.cli.Cli.trimswitch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The round trip through standard tools: fixtures crafted by scapy (and merged by mergecap), replayed,
 * and the output read back by tshark. Needs Debian's python3-scapy and tshark (.ci/run installs them).
 */
class ReplayToolsTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path dir;

    private static String run(final String... command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, process.exitValue(), String.join(" ", command) + " failed");
        return out;
    }

    private static boolean works(final String... command) {
        try {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (final IOException | InterruptedException e) {
            return false;
        }
    }

    @BeforeAll
    static void craftFixturesWithScapy() throws Exception {
        final boolean tools = works(PYTHON, "-c", "import scapy.all") && works("tshark", "-v") && works("mergecap", "-v");
        // On a developer's machine without them the test is skipped; in CI, which installs them, it must run.
        assertTrue(tools || !"true".equals(System.getenv("CI")), "CI must have python3-scapy, tshark and mergecap");
        assumeTrue(tools, "needs python3-scapy, tshark and mergecap (installed by .ci/run)");
        final Path script = Path.of(ReplayToolsTest.class.getResource("/replay/make_fixtures.py").toURI());
        run(PYTHON, script.toString(), dir.toString());
    }

    /** tshark's view of a capture: one list of fields per packet. */
    private static List<String[]> tshark(final Path file, final String... fields) throws Exception {
        return tshark(file, "-o", "ip.check_checksum:TRUE", List.of(fields));
    }

    /** tshark's view of a capture with one more preference set. */
    private static List<String[]> tshark(final Path file, final String option, final String preference, final List<String> fields) throws Exception {
        final List<String> command = new ArrayList<>(List.of("tshark", "-r", file.toString(), "-o", "ip.check_checksum:TRUE", option, preference,
            "-T", "fields"));
        for (final String field : fields) {
            command.add("-e");
            command.add(field);
        }
        final List<String[]> rows = new ArrayList<>();
        for (final String line : run(command.toArray(new String[0])).split("\n")) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    @Test
    void tsharkSeesEveryPacketOnItsEgressInterfaceAndTrimmedOnesAsValid64ByteHeadersWithTheTrimmedDscp() throws Exception {
        final Path out = dir.resolve("out.pcapng");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", dir.resolve("incast.pcapng").toString(), "--out", out.toString(),
            "--out-dir", dir.resolve("ports").toString());
        assertEquals(0, result.exit(), result.err());

        final Map<String, Integer> perInterface = new HashMap<>();
        int trimmed = 0;
        for (final String[] row : tshark(out, "frame.interface_id", "frame.interface_name", "frame.len", "ip.dsfield.dscp", "ip.checksum.status")) {
            perInterface.merge(row[0], 1, Integer::sum);
            assertEquals("port" + row[0], row[1]);
            assertEquals("1", row[4], "a valid IPv4 header checksum");
            if (row[2].equals("64")) {
                trimmed++;
                assertEquals("11", row[3], "trimmed packets carry the trimmed DSCP");
            } else {
                assertTrue(row[2].equals("1500") || row[2].equals("200"), "whole packets keep their length: " + row[2]);
            }
        }
        assertEquals(Map.of("4", 160, "6", 10, "7", 3), perInterface);
        assertTrue(trimmed > 80, "the 4:1 incast trims: " + trimmed);
        assertTrue(result.out().contains("port 4: 160, " + trimmed + " trimmed"), result.out());
        assertEquals(160, tshark(dir.resolve("ports/4_out.pcap"), "frame.len").size());
    }

    @Test
    void ipv6PacketsAreTrimmedToValidHeadersWithTheTrimmedDscpAndAFreshUdpChecksum() throws Exception {
        final Path out = dir.resolve("out6.pcapng");
        final io.trimswitch.cli.Cli.Result result = trimswitch("replay", "--in", dir.resolve("incast6.pcapng").toString(), "--out", out.toString());
        assertEquals(0, result.exit(), result.err());
        final List<String> command = List.of("frame.interface_id", "frame.len", "ipv6.tclass.dscp", "ipv6.plen", "udp.length", "udp.checksum.status",
            "ipv6.hopopts.nxt");
        int trimmed = 0;
        int rows = 0;
        for (final String[] row : tshark(out, "-o", "udp.check_checksum:TRUE", command)) {
            rows++;
            assertEquals("4", row[0], "every packet leaves by port 4");
            assertEquals("1", row[5], "a valid UDP checksum over IPv6: " + String.join(" ", row));
            final int length = Integer.parseInt(row[1]);
            final boolean hopByHop = !row[6].isEmpty();
            assertEquals(length - 14 - 40, Integer.parseInt(row[3]), "the payload length matches the frame");
            assertEquals(length - 14 - 40 - (hopByHop ? 8 : 0), Integer.parseInt(row[4]), "the UDP length matches the frame");
            if (length < 1500) {
                trimmed++;
                assertEquals("11", row[2], "trimmed packets carry the trimmed DSCP");
                assertEquals(hopByHop ? 78 : 70, length, "a trimmed IPv6 packet keeps its headers, more than the 64-byte trim size");
            } else {
                assertEquals("10", row[2]);
            }
        }
        assertEquals(160, rows);
        assertTrue(trimmed > 80, "the 4:1 incast trims: " + trimmed);
    }

    @Test
    void untrimmedPacketsAreByteIdenticalToWhatScapyWrote() throws Exception {
        final Path out = dir.resolve("identical.pcapng");
        assertEquals(0, trimswitch("replay", "--in", dir.resolve("incast.pcapng").toString(), "--out", out.toString()).exit());
        final List<String> sent = new ArrayList<>();
        for (final String[] row : tshark(dir.resolve("incast.pcapng"), "frame.protocols", "data.data", "ip.id", "ip.src")) {
            sent.add(String.join("|", row));
        }
        int whole = 0;
        for (final String[] row : tshark(out, "frame.protocols", "data.data", "ip.id", "ip.src", "frame.len")) {
            if (!row[4].equals("64")) {
                whole++;
                final String key = String.join("|", row[0], row[1], row[2], row[3]);
                assertTrue(sent.contains(key), "whole packet left as scapy wrote it: " + key.substring(0, Math.min(120, key.length())));
            }
        }
        // the 13 plain frames, and more whole incast packets than the 16-packet data queue holds
        assertTrue(whole > 13 + 16, "whole packets: " + whole);
    }

    @Test
    void classicPcapsPerPortReplayExactlyLikeTheMergedPcapng() throws Exception {
        final List<String> args = new ArrayList<>(List.of("replay", "--out", dir.resolve("split.pcapng").toString()));
        for (int port = 0; port < 6; port++) {
            args.add("--in");
            args.add(port + "=" + dir.resolve("port" + port + ".pcap"));
        }
        assertEquals(0, trimswitch(args.toArray(new String[0])).exit());
        assertEquals(0, trimswitch("replay", "--in", dir.resolve("incast.pcapng").toString(), "--out", dir.resolve("merged.pcapng").toString()).exit());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(dir.resolve("split.pcapng")), Files.readAllBytes(dir.resolve("merged.pcapng"))));
    }
}
