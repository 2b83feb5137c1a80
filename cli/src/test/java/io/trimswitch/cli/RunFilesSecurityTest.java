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
 * The files of a running switch as a careless operator (umask 000) or another user (nobody, through setpriv) would
 * meet them: each run in a private mount namespace whose /run/trimswitch is a fresh tmpfs, removed with it.
 */
class RunFilesSecurityTest {
    @TempDir
    Path dir;

    @Test
    void underUmask000EveryFileAndDirectoryOfTheSwitchHasItsOwnModeAndTheSocketAndLockAre0600() throws Exception {
        final String listing = shell("0711", "umask 000; " + run("--duration-s 60") + " & switch=$!; " + UNTIL_RUNNING
            + "stat -c '%a %F %n' /run/trimswitch /run/trimswitch/* | sort; kill $switch; wait").output();
        final List<String> lines = listing.lines().filter(line -> line.matches("[0-7]{3,4} .*")).toList();
        assertTrue(lines.contains("711 directory /run/trimswitch"), listing);
        assertTrue(lines.stream().anyMatch(line -> line.matches("600 regular file /run/trimswitch/trimswitch-\\d+\\.counters")), listing);
        assertTrue(lines.stream().anyMatch(line -> line.matches("600 regular file /run/trimswitch/trimswitch-\\d+\\.ctl\\.lock")), listing);
        assertTrue(lines.stream().anyMatch(line -> line.matches("600 socket /run/trimswitch/trimswitch-\\d+\\.ctl")), listing);
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("666") || line.startsWith("777") || line.startsWith("644")), listing);
    }

    @Test
    void aRunDirectoryOthersMayWriteIsRefusedInOneLine() throws Exception {
        final Shell refused = shell("0777", run("--duration-s 1"));
        assertEquals(2, refused.exit(), refused.output());
        assertEquals(List.of("trimswitch: metrics.countersFile: directory /run/trimswitch is writable by others (mode 0777): the switch keeps its files"
            + " only where no one else can change them"), refused.output().lines().toList());
    }

    @Test
    void aLockAnotherUserHoldsOnAFileAKilledSwitchLeftDoesNotBlockARestart() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv");
        // As an older switch killed with SIGKILL left it (0644, a process id that is gone), locked by nobody meanwhile.
        final Shell restarted = shell("0711", "ns=$(stat -L -c %i /proc/self/ns/net); lock=/run/trimswitch/trimswitch-$ns.ctl.lock; "
            + "echo 999999 > $lock; chmod 0644 $lock; "
            + "setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 -c 'import fcntl,sys,time; f=open(sys.argv[1]);"
            + " fcntl.lockf(f, fcntl.LOCK_SH); print(\"held\", flush=True); time.sleep(60)' $lock & holder=$!; sleep 1; "
            + run("--duration-s 1") + "; status=$?; kill $holder; exit $status");
        assertEquals(0, restarted.exit(), restarted.output());
        assertTrue(restarted.output().contains("held") && restarted.output().contains("trimswitch: running 1 port"), restarted.output());
    }

    @Test
    void statsCallsAFileAnotherUserWroteNotRunning() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv");
        final Path counters = dir.resolve("fake.counters");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        final Process writer = new ProcessBuilder("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sh", "-c",
            "head -c 8192 /dev/zero > " + counters).inheritIO().start();
        assertEquals(0, writer.waitFor());
        final Cli.Result stats = Cli.trimswitch("stats", "--counters", counters.toString());
        assertEquals(2, stats.exit());
        assertTrue(stats.err().startsWith("trimswitch: not running: the counters at " + counters + " belong to user "), stats.err());
    }

    @Test
    void aSecondSwitchInTheNamespaceIsRefusedOnceNamingBothOptionsAndNeverSaysStopped() throws Exception {
        final Shell second = shell("0711", run("--duration-s 60") + " > /dev/null & first=$!; " + UNTIL_RUNNING
            + run("--duration-s 1") + "; status=$?; kill $first; wait $first; echo first=$?; exit $status");
        assertEquals(2, second.exit(), second.output());
        final List<String> lines = second.output().lines().toList();
        assertEquals(2, lines.size(), second.output());
        assertTrue(lines.getFirst().matches("trimswitch: counters file /run/trimswitch/trimswitch-\\d+\\.counters is in use by another running switch"
            + " \\(process \\d+\\); a second switch in this network namespace needs its own --counters FILE and --metrics HOST:PORT \\(or off\\)"),
            lines.getFirst());
        assertEquals("first=0", lines.getLast(), "SIGTERM ends the first with 0 after its clean stop");
        assertFalse(second.output().contains("stopped;"), second.output());
    }

    /** Waits (a minute at most, on a loaded host) until the switch's control socket is there: it runs. */
    private static final String UNTIL_RUNNING = "for i in $(seq 600); do ls /run/trimswitch/*.ctl > /dev/null 2>&1 && break; sleep 0.1; done; ";

    private record Shell(int exit, String output) {
    }

    private String run(final String options) throws IOException {
        final Path config = dir.resolve("one.yaml");
        if (!Files.exists(config)) {
            Files.writeString(config, "ports:\n  - {bind: 127.0.0.1:0, remote: 127.0.0.1:9}\nmetrics:\n  address: 127.0.0.1:0\n");
        }
        return String.join(" ", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-cp", "\"$CP\"", TrimswitchCommand.class.getName(), "run", "--config", config.toString(), options);
    }

    /** {@code script} as root in a private mount namespace whose /run/trimswitch is an empty tmpfs of {@code mode}. */
    private static Shell shell(final String mode, final String script) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "needs unshare");
        final ProcessBuilder builder = new ProcessBuilder("/usr/bin/unshare", "-m", "sh", "-c",
            "mkdir -p /run/trimswitch && mount --make-rprivate / && mount -t tmpfs -o size=64m,mode=" + mode + " tmpfs /run/trimswitch || exit 99; "
                + script).redirectErrorStream(true);
        builder.environment().put("CP", System.getProperty("java.class.path"));
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the tool did not finish: " + output);
        assumeTrue(process.exitValue() != 99, "cannot mount a tmpfs here: " + output);
        return new Shell(process.exitValue(), output);
    }
}
