package io.trimswitch.cli;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.trimswitch.dataplane.io.PcapWriter;
import io.trimswitch.dataplane.io.PcapngWriter;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzed command lines for the virtual-time commands ({@code scenario}, {@code fabric}, {@code replay}): known options
 * with hostile or fuzzed values, and stray words. Each run ends with exit 0 or 1, or with exit 2 and exactly one line on
 * stderr naming the problem; never a stack trace. Runs stay cheap (a packet or two per flow) and every path given
 * lies in a folder of the test's own, so nothing is written anywhere else and no live switch starts.
 */
class CommandLineFuzzTest {
    /** A line of a stack trace, as a user would see it. */
    private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s+at [\\w.$/]+\\(.*\\)$");
    private static Path dir;
    private static Path out;

    /** Values a user gets wrong anywhere. */
    private static final String[] HOSTILE = {"", "0", "-1", "1", "2", "NaN", "Infinity", "-Infinity", "1e300", "4e-324", "2147483648",
        "9223372036854775808", "x", ",", "->", ":", "0x10", "1.5", " 1", "1,2", "@", "incast:2->1", "incast:0->1", "pairs:0->1,1->0",
        "pairs:0->0", "mod16:2", "mod16:", "shift", "ideal", "mod", "dod", "tofino", "tofino2", "dod,mod", "ndp", "open-loop", "three",
        "two", "all", "origin", "every", "backlog", "separate", "shared", "spray", "ecmp", "permutation", "incast", "all-to-all",
        "flows", "0:0", "0:1@5", "9:9", "capture", "line-rate", "0.5", "63", "64", "65535", "65536"};
    /** Values for options that size a run: never a large valid one. */
    private static final String[] SMALL = {"", "0", "-1", "1", "2", "NaN", "Infinity", "1e300", "2147483648", "x", "1.5", "0.01"};

    private record Command(String name, String[] options, String[] sizing, String[] paths, String[] flags, String[][] always) {
    }

    private static final Command[] COMMANDS = {
        new Command("scenario",
            new String[] {"--mechanism", "--pattern", "--transport", "--initial-window", "--hosts", "--packet-bytes", "--t0-us", "--t1-us",
                "--notify", "--signal", "--signal-backlog", "--pessimistic-rate", "--halftimistic-rate", "--meters", "--data-queue",
                "--header-queue", "--dod-queue", "--seed"},
            new String[] {"--packets", "--background", "--background-us", "--duration-us", "--jobs"},
            new String[] {"--json", "--pcap-dir", "--flow-sizes", "--config", "--config-db"},
            new String[] {"--no-halftimistic", "--return-to-sender", "--no-jitter", "--no-ideal", "--help", "--version"},
            new String[][] {{"--packets", "1"}, {"--mechanism", "tofino"}, {"--no-ideal"}}),
        new Command("fabric",
            new String[] {"--host-rate", "--uplink-rate", "--latency-ns", "--fail", "--leaf", "--spine", "--routing", "--workload",
                "--racks", "--senders-per-rack", "--load", "--initial-window", "--seed", "--mechanism", "--paths"},
            new String[] {"--packets", "--leaves", "--spines", "--hosts-per-leaf", "--duration-us", "--mtu", "--queue-packets"},
            new String[] {"--json", "--flow-sizes", "--config", "--topology", "--matrix"},
            new String[] {"--no-jitter", "--help"},
            new String[][] {{"--packets", "1"}, {"--leaves", "2"}, {"--spines", "1"}, {"--hosts-per-leaf", "1"}}),
        new Command("replay",
            new String[] {"--timing", "--mechanism"},
            new String[] {"--speed"},
            new String[] {"--in", "--out", "--out-dir", "--json", "--config", "--config-db"},
            new String[] {"--help"},
            new String[][] {}),
    };

    /** Option names a stray word may not spell: they would write or read outside the test's folder, or start threads. */
    private static final Set<String> GUARDED = Set.of("--json", "--pcap-dir", "--flow-sizes", "--config", "--config-db", "--in", "--out",
        "--out-dir", "--clock", "--dilation", "--placement", "--idle", "--jobs", "--packets", "--leaves", "--spines", "--hosts-per-leaf",
        "--duration-us", "--background", "--background-us", "--speed", "--compare-virtual", "--metrics");

    @BeforeAll
    static void files() throws IOException {
        dir = Files.createTempDirectory("trimswitch-cli-fuzz");
        out = dir.resolve("out");
        Files.writeString(dir.resolve("settings.yaml"), "workload:\n  packets: 2\n");
        Files.writeString(dir.resolve("config_db.json"), "{\"SWITCH_TRIMMING\": {\"GLOBAL\": {\"size\": \"128\", \"dscp_value\": \"48\"}}}\n");
        Files.writeString(dir.resolve("sizes.csv"), "1\n2\n");
        Files.writeString(dir.resolve("empty.csv"), "");
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[200]);
        WorkloadFrames.writeData(frame, 0, 200, 0, 1, 0, 0, 10, 666);
        try (PcapWriter pcap = new PcapWriter(dir.resolve("in.pcap"), 0)) {
            pcap.write(0, frame, 0, 200);
            pcap.write(1_000_000, frame, 0, 100);
        }
        try (PcapngWriter pcapng = new PcapngWriter(dir.resolve("in.pcapng"), new String[] {"p0", "p1"}, new long[] {1, 1}, 0)) {
            pcapng.write(0, 0, frame, 0, 200);
            pcapng.write(1, 1_000_000, frame, 0, 100);
        }
        Files.write(dir.resolve("junk.pcap"), new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0});
    }

    @AfterAll
    static void removeFiles() throws IOException {
        deleteTree(dir);
    }

    /** Paths in the test's folder, present or not, files or folders; and the same paths as PORT=FILE. */
    private static String[] paths() {
        final String d = dir.toString();
        final String o = out.toString();
        return new String[] {"", d, d + "/settings.yaml", d + "/config_db.json", d + "/sizes.csv", d + "/empty.csv", d + "/in.pcap",
            d + "/in.pcapng", d + "/junk.pcap", d + "/missing", d + "/in.pcap/below", o + "/report.json", o + "/captures", o,
            o + "/missing/deep", o + "/out.pcapng", "0=" + d + "/in.pcap", "1=" + d + "/in.pcapng", "0=", "=" + d + "/in.pcap",
            "-1=" + d + "/in.pcap", "99=" + d + "/in.pcap", "x=" + d + "/in.pcap", "0=" + d + "/junk.pcap", "0=" + d + "/missing",
            "0=" + d};
    }

    @FuzzTest
    void anyCommandLineRunsOrIsRefusedInOneLine(final FuzzedDataProvider data) throws IOException {
        final Command command = COMMANDS[data.consumeInt(0, COMMANDS.length - 1)];
        final String[] paths = paths();
        final List<String> args = new ArrayList<>();
        args.add(command.name());
        final int words = data.consumeInt(0, 6);
        for (int i = 0; i < words; i++) {
            switch (data.consumeInt(0, 5)) {
                case 0, 1 -> {
                    args.add(data.pickValue(command.options()));
                    args.add(data.consumeBoolean() ? data.pickValue(HOSTILE) : stray(data.consumeString(12)));
                }
                case 2 -> {
                    args.add(data.pickValue(command.sizing()));
                    args.add(data.pickValue(SMALL));
                }
                case 3 -> {
                    args.add(data.pickValue(command.paths()));
                    args.add(data.pickValue(paths));
                }
                case 4 -> args.add(data.pickValue(command.flags()));
                default -> args.add(stray(data.consumeString(12)));
            }
        }
        // What keeps a run small (a packet per flow, one mechanism), unless the fuzzer gave the option itself.
        for (final String[] option : command.always()) {
            if (!args.contains(option[0])) {
                args.addAll(List.of(option));
            }
        }
        if (command.name().equals("replay") && !args.contains("--in")) {
            args.add("--in");
            args.add(paths[7]);
        }
        final Cli.Result result = Cli.trimswitch(args.toArray(String[]::new));
        final String line = String.join(" ", args);
        assertTrue(result.exit() >= 0 && result.exit() <= 2, "exit " + result.exit() + " for: " + line + "\n" + result.err());
        assertFalse(STACK_FRAME.matcher(result.err()).find() || result.err().contains("Exception") && !line.contains("Exception"),
            "a stack trace for: " + line + "\n" + result.err());
        if (result.exit() == TrimswitchCommand.EXIT_USAGE) {
            final String err = result.err().strip();
            assertEquals(1, err.lines().count(), "one line for: " + line + "\n" + result.err());
            assertTrue(err.length() > "trimswitch: ".length(), "a line that names the problem for: " + line + "\n" + result.err());
        }
        deleteTree(out);
    }

    @Test
    void anArgumentWithACarriageReturnIsRefusedOnOneLineWithTheCharacterShownEscaped() {
        // What a shell script saved with CRLF line ends passes as its last argument.
        final Cli.Result result = Cli.trimswitch("scenario", "--packets", "1\r");
        assertEquals(TrimswitchCommand.EXIT_USAGE, result.exit(), result.err());
        assertEquals(1, result.err().strip().lines().count(), "one line: " + result.err());
        assertTrue(result.err().contains("'1\\r'"), result.err());
    }

    /** A fuzzed word, kept from spelling an option that would leave the test's folder, or an @file to expand. */
    private static String stray(final String word) {
        if (word.startsWith("@")) {
            return "x" + word;
        }
        if (word.startsWith("-")) {
            for (final String guarded : GUARDED) {
                if (word.startsWith(guarded)) {
                    return "x" + word;
                }
            }
        }
        return word;
    }

    private static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (final Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
