package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A long fabric run says how far it has come, and Ctrl-C says what it stopped and that nothing was written. */
class FabricProgressTest {
    @Test
    void theProgressLineSaysFlowsCompletedAndVirtualTimeAndEndsWithTheRun() throws InterruptedException {
        final StringWriter text = new StringWriter();
        final PrintWriter err = new PrintWriter(text, true);
        try (WatchedRun run = WatchedRun.start("fabric", () -> 3, 8, () -> 1_500_000, err, 0)) {
            for (int i = 0; i < 200 && !text.toString().contains("fabric"); i++) {
                Thread.sleep(10);
            }
        }
        final String shown = text.toString();
        assertTrue(shown.startsWith("\rfabric: 3 of 8 flows completed, 1.5 µs of virtual time, 0:00"), shown);
        assertTrue(shown.endsWith("\n"), "the line ends with the run: " + shown);
    }

    @Test
    void aShortRunShowsNoProgress() {
        final StringWriter text = new StringWriter();
        try (WatchedRun run = WatchedRun.start("fabric", () -> 8, 8, () -> 1_500_000, new PrintWriter(text, true), WatchedRun.PROGRESS_AFTER_MS)) {
            assertEquals("8 of 8 flows completed, 1.5 µs of virtual time", run.reached());
        }
        assertEquals("", text.toString());
    }

    /** On a terminal (a pseudo-terminal here, from script(1)), as a user runs it: the line appears, and Ctrl-C's SIGINT ends it in one line, exit 130. */
    @Test
    @Tag("host-timing")
    void onATerminalALongRunShowsProgressAndCtrlCSaysWhatItStopped() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs script(1), from util-linux");
        assumeFalse(IgnoredSignals.ignored(IgnoredSignals.SIGINT),
            "SIGINT is ignored in this process (started in the background by a non-interactive shell), so the tool ignores it too");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String command = "exec " + java + " --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow --add-exports "
            + "java.base/jdk.internal.misc=ALL-UNNAMED -cp " + System.getProperty("java.class.path") + " " + TrimswitchCommand.class.getName()
            + " fabric --leaves 16 --hosts-per-leaf 16 --spines 8 --packets 60000";
        final Process script = new ProcessBuilder("/usr/bin/script", "-qec", command, "/dev/null").redirectErrorStream(true).start();
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final Thread reader = Thread.ofPlatform().daemon().start(() -> copy(script.getInputStream(), output));
        try {
            for (int i = 0; i < 1200 && !text(output).contains("flows completed") && script.isAlive(); i++) {
                Thread.sleep(100);
            }
            assertTrue(text(output).contains("flows completed"), "a progress line within 120 s: " + text(output));
            final List<ProcessHandle> children = script.toHandle().children().toList();
            assertEquals(1, children.size(), "script runs the tool's JVM alone");
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(children.get(0).pid())).start().waitFor());
            assertTrue(script.waitFor(60, TimeUnit.SECONDS), text(output));
            reader.join(5000);
            final String shown = text(output);
            assertEquals(130, script.exitValue(), shown);
            final List<String> lines = shown.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
            final String last = lines.get(lines.size() - 1);
            assertTrue(last.matches("trimswitch: interrupted: the fabric run stopped at \\d+ of 256 flows completed, [0-9.]+ µs of virtual time;"
                + " nothing was written"), shown);
            assertTrue(lines.subList(0, lines.size() - 1).stream().allMatch(line -> line.startsWith("fabric: ")),
                "the progress line, drawn over itself, then the one that says what stopped: " + shown);
            assertFalse(shown.contains("Exception"), shown);
        } finally {
            script.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
    }

    private static String text(final ByteArrayOutputStream output) {
        synchronized (output) {
            return output.toString(StandardCharsets.UTF_8);
        }
    }

    private static void copy(final InputStream in, final ByteArrayOutputStream out) {
        final byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                synchronized (out) {
                    out.write(buffer, 0, n);
                }
            }
        } catch (final IOException e) {
            // The process ended.
        }
    }
}
