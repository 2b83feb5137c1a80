package io.trimswitch.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A command named first is built on its own; what the user sees must not differ from the whole tool's. */
class TrimswitchCommandTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"scenario", "fabric", "evaluate", "replay", "run", "stats", "ctl", "gen", "host"})
    void aCommandsUsageIsTheSameAloneAndThroughHelp(final String command) {
        final Cli.Result alone = Cli.trimswitch(command, "--help");
        final Cli.Result throughHelp = Cli.trimswitch("help", command);
        assertEquals(0, alone.exit());
        assertEquals(throughHelp.out(), alone.out());
        assertTrue(alone.out().startsWith("Usage: trimswitch " + command + " "), alone.out());
    }

    @Test
    void theToolsUsageListsEveryCommand() {
        final Cli.Result usage = Cli.trimswitch("--help");
        assertEquals(0, usage.exit());
        for (final String command : new String[] {"scenario", "fabric", "evaluate", "replay", "run", "stats", "ctl", "gen", "host", "help"}) {
            assertTrue(usage.out().contains("\n  " + command + " "), command + " missing from:\n" + usage.out());
        }
    }

    @Test
    void aMisspelledCommandIsNamedWithTheToolsHelp() {
        final Cli.Result result = Cli.trimswitch("scenaro");
        assertEquals(2, result.exit());
        assertEquals("trimswitch: Unmatched argument at index 0: 'scenaro'; did you mean 'scenario'? (see 'trimswitch --help')\n", result.err());
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "scenario --pakets 5     | Unknown options: '--pakets', '5'; did you mean '--packets'? (see 'trimswitch scenario --help')",
        "fabric --leevs=3        | Unknown option: '--leevs=3'; did you mean '--leaves'? (see 'trimswitch fabric --help')",
        "gen sendd               | Unmatched argument at index 0: 'sendd'; did you mean 'send'? (see 'trimswitch gen --help')",
        "evalute                 | Unmatched argument at index 0: 'evalute'; did you mean 'evaluate'? (see 'trimswitch --help')",
        "scenario --xyzzy        | Unknown option: '--xyzzy' (see 'trimswitch scenario --help')"})
    void aMistypedNameGetsTheNearestNamesInTheSameLine(final String commandLine, final String expected) {
        final Cli.Result result = Cli.trimswitch(commandLine.split(" "));
        assertEquals(2, result.exit());
        assertEquals("trimswitch: " + expected + "\n", result.err());
    }

    @Test
    void aCommandsBadOptionNamesTheCommandsHelp() {
        final Cli.Result result = Cli.trimswitch("gen", "send", "--count", "x");
        assertEquals(2, result.exit());
        assertTrue(result.err().endsWith("(see 'trimswitch gen send --help')\n"), result.err());
    }

    @Test
    void aGeneratorWhoseReceiverIsNotListeningCountsTheRefusalsAndGoesOn() throws Exception {
        final int closed;
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        final Cli.Result result = Cli.trimswitch("gen", "send", "--to", "127.0.0.1:" + closed, "--count", "20", "--rate", "1000");
        assertEquals(0, result.exit(), result.err());
        assertEquals("", result.err());
        assertTrue(result.out().matches("(?s)gen: sent [0-9]+ datagrams .*; [1-9][0-9]* more refused by the receiver \\(ICMP port unreachable: nothing listens there\\)\n"),
            result.out());
    }

    @Test
    void everyCommandAnswersVersion() {
        assertEquals(Cli.trimswitch("--version").out(), Cli.trimswitch("scenario", "--version").out());
        assertTrue(Cli.trimswitch("scenario", "--version").out().startsWith("trimswitch "));
    }

    /** {@code trimswitch 0.1.0 (ec949ed)}: the build's version and the commit it was built from, or "unknown commit" without git. */
    @Test
    void versionNamesTheCommitTheToolWasBuiltFrom() throws Exception {
        final String version = Cli.trimswitch("--version").out().strip();
        assertTrue(version.matches("trimswitch \\d+\\.\\d+\\.\\d+\\S* \\(([0-9a-f]{7,}|unknown commit)\\)"), version);
        final Process git = new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD").directory(java.nio.file.Path.of("..").toFile())
            .redirectErrorStream(true).start();
        final String head = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        if (git.waitFor() == 0) {
            assertEquals("(" + head + ")", version.substring(version.indexOf('(')), "built from the checkout's HEAD");
        }
    }

    /**
     * A run larger than the heap ends in one line that says what to give it, exit 1, and no stack trace: whether it ran
     * on the command's thread (fabric) or on worker threads side by side (scenario's mechanisms).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"fabric --leaves 32 --hosts-per-leaf 32 --spines 16", "scenario"})
    void aRunThatOutgrowsTheHeapSaysSoInOneLine(final String commandLine) throws Exception {
        final String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(javaBin, "-Xmx16m", "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            TrimswitchCommand.class.getName()));
        command.addAll(java.util.List.of(commandLine.split(" ")));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), output);
        org.junit.jupiter.api.Assertions.assertEquals(TrimswitchCommand.EXIT_RUN_FAILED, process.exitValue(), output);
        org.junit.jupiter.api.Assertions.assertEquals(1, output.lines().count(), output);
        org.junit.jupiter.api.Assertions.assertTrue(output.startsWith("trimswitch: out of memory (Java heap space): the run needs a larger heap than"
            + " this JVM's ") && output.contains(" MiB; give it one with TRIMSWITCH_JAVA_OPTS=-Xmx<size>"), output);
    }
}
