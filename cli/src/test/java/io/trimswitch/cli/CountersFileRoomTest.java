package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * As root, {@code run} under a /run/trimswitch of its own (a private mount namespace and a small tmpfs): without room for the
 * counters file it says so in one line, exits 2 and leaves nothing there; with room it runs and cleans up.
 */
class CountersFileRoomTest {
    @TempDir
    Path dir;

    @Test
    void aDevShmTooSmallForTheCountersIsOneLineAndLeavesNothingBehind() throws Exception {
        final Shell small = runUnderDevShm("1m");
        assertEquals(TrimswitchCommand.EXIT_USAGE, small.exit(), small.output());
        final List<String> lines = small.output().lines().toList();
        assertEquals("left: []", lines.getLast(), "nothing left in /run/trimswitch: " + small.output());
        assertEquals(2, lines.size(), "one line, then the listing: " + small.output());
        assertTrue(lines.getFirst().matches("trimswitch: metrics.countersFile: counters file /run/trimswitch/trimswitch-\\d+\\.counters: cannot make it:"
            + " it needs \\d+ bytes and /run/trimswitch \\(tmpfs\\) has 1048576 free \\(No space left on device\\)"), lines.getFirst());
        assertFalse(small.output().contains("Exception") || small.output().contains("Error"), small.output());

        final Shell roomy = runUnderDevShm("64m");
        assertEquals(0, roomy.exit(), roomy.output());
        assertTrue(roomy.output().contains("trimswitch: running 1 port,") && roomy.output().endsWith("left: []"), roomy.output());
    }

    private record Shell(int exit, String output) {
    }

    /** The tool's {@code run} for half a second, in a mount namespace whose /run/trimswitch is a tmpfs of {@code size}; then what is left there. */
    private Shell runUnderDevShm(final String size) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "needs unshare");
        final Path config = dir.resolve("one.yaml");
        Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
        final String java = String.join(" ", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-cp", "\"$CP\"", TrimswitchCommand.class.getName(), "run", "--config", config.toString(), "--duration-s", "0.5");
        final ProcessBuilder builder = new ProcessBuilder("/usr/bin/unshare", "-m", "sh", "-c",
            "mkdir -p /run/trimswitch && mount --make-rprivate / && mount -t tmpfs -o size=" + size + ",mode=0711 tmpfs /run/trimswitch || exit 99; "
                + java + "; status=$?; printf 'left: [%s]' \"$(ls -A /run/trimswitch)\"; exit $status").redirectErrorStream(true);
        builder.environment().put("CP", System.getProperty("java.class.path"));
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the tool did not finish: " + output);
        assumeTrue(process.exitValue() != 99, "cannot mount a tmpfs here: " + output);
        return new Shell(process.exitValue(), output);
    }
}
