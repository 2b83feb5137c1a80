package io.trimswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The signals an operator's scripts send a running switch, to a switch in a process of its own: SIGUSR1 (log rotation)
 * leaves it running; SIGALRM and SIGHUP stop it as SIGTERM does, exit 0, its counters file and control socket gone.
 */
class RunSignalsTest {
    @TempDir
    Path dir;

    @Test
    void sigusr1IsIgnoredAndSigalrmStopsCleanly() throws Exception {
        final Process sw = start();
        try {
            signal(sw, "USR1");
            // The switch still answers after the signal has had time to land.
            Thread.sleep(500);
            assertTrue(sw.isAlive(), "SIGUSR1 ended the switch: " + log());
            final Cli.Result show = Cli.trimswitch("ctl", "--socket", dir.resolve("s.ctl").toString(), "show");
            assertEquals(0, show.exit(), show.err());
            signal(sw, "ALRM");
            assertStoppedCleanly(sw);
        } finally {
            sw.destroyForcibly().waitFor();
        }
    }

    @Test
    void sighupStopsCleanly() throws Exception {
        // Under nohup the switch inherits SIGHUP ignored, and the JVM then leaves it so, as a daemon started that way should.
        assumeFalse(IgnoredSignals.ignored(IgnoredSignals.SIGHUP), "SIGHUP is ignored in this process (started under nohup), so the switch ignores it too");
        final Process sw = start();
        try {
            signal(sw, "HUP");
            assertStoppedCleanly(sw);
        } finally {
            sw.destroyForcibly().waitFor();
        }
    }

    private Process start() throws Exception {
        final Path config = dir.resolve("switch.yaml");
        Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: null\n");
        final Process sw = ToolProcess.start(dir.resolve("run.log"), "run", "--config", config.toString(), "--counters",
            dir.resolve("s.counters").toString(), "--control", dir.resolve("s.ctl").toString(), "--duration-s", "300");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(dir.resolve("run.log")).contains("control socket") && sw.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(dir.resolve("s.ctl")) && Files.exists(dir.resolve("s.counters")), "host too slow, or the switch failed: " + log());
        return sw;
    }

    private void assertStoppedCleanly(final Process sw) throws Exception {
        assertTrue(sw.waitFor(60, TimeUnit.SECONDS), "host too slow: the switch still runs 60 s after the signal");
        assertEquals(0, sw.exitValue(), log());
        assertTrue(log().contains("trimswitch: stopped;"), log());
        assertFalse(Files.exists(dir.resolve("s.counters")), "the counters file goes with the switch");
        assertFalse(Files.exists(dir.resolve("s.ctl")), "the control socket goes with the switch");
    }

    private static void signal(final Process sw, final String name) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(sw.pid())).inheritIO().start().waitFor());
    }

    private String log() throws Exception {
        return Files.readString(dir.resolve("run.log"));
    }
}
