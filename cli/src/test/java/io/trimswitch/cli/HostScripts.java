package io.trimswitch.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The end-to-end scripts of {@code src/test/mininet}, which build Mininet labs of Linux hosts around live switches with
 * {@code mininet/lab.py}, run with Debian's {@code /usr/bin/python3} (Mininet's own).
 */
public final class HostScripts {
    /** A script's exit code when the senders could not fill the incast port: the host, not the switch, fell short. */
    private static final int HOST_TOO_SLOW = 3;
    /** The Python that has Mininet (Debian's python3-mininet) and scapy. */
    static final String PYTHON = "/usr/bin/python3";

    private HostScripts() {
    }

    /**
     * Skips the test unless it runs as root with Mininet ({@code mn}, {@code mnexec}, Debian's python3-mininet), iproute2,
     * ping, ethtool and iperf3; in CI, which installs them (.ci/run), fails instead.
     */
    static void assumeRootAndMininet() throws IOException, InterruptedException {
        final String missing = missing("root".equals(System.getProperty("user.name")));
        assertTrue(missing.isEmpty() || !"true".equals(System.getenv("CI")), "CI runs as root with Mininet, iproute2, ping, ethtool and iperf3");
        assumeTrue(missing.isEmpty(), () -> "needs " + missing + " (apt-get install mininet; installed by .ci/run)");
    }

    /** What of root, Mininet and the tools this host lacks, in words ("root", "iperf3, Mininet's Python"); "" when nothing. */
    static String missing(final boolean root) throws IOException, InterruptedException {
        final List<String> missing = new java.util.ArrayList<>();
        if (!root) {
            missing.add("root");
        }
        List.of("mn", "mnexec", "ip", "ping", "ethtool", "iperf3", "unshare").stream().filter(tool -> !onPath(tool)).forEach(missing::add);
        if (!Files.isExecutable(Path.of(PYTHON)) || new ProcessBuilder(PYTHON, "-c", "import mininet.net").start().waitFor() != 0) {
            missing.add("Mininet's Python module (python3-mininet)");
        }
        return String.join(", ", missing);
    }

    /** Runs a script of {@code src/test/mininet}, with {@code arguments}, the tool as TRIMSWITCH; skips when the host is too slow for it. */
    public static String run(final String name, final String... arguments) throws IOException, InterruptedException {
        return runOn("af_packet", name, arguments);
    }

    /**
     * The same with the switches' interface ports of {@code kind} ({@code af_packet}, {@code af_xdp}: TRIMSWITCH_PORT_KIND);
     * skipped for {@code af_xdp} on a kernel without AF_XDP sockets.
     */
    public static String runOn(final String kind, final String name, final String... arguments) throws IOException, InterruptedException {
        assumeRootAndMininet();
        if ("af_xdp".equals(kind)) {
            assumeTrue(new ProcessBuilder(PYTHON, "-c", "import socket; socket.socket(44, socket.SOCK_RAW, 0)").start().waitFor() == 0,
                "this kernel has no AF_XDP sockets (CONFIG_XDP_SOCKETS)");
        }
        final List<String> command = new java.util.ArrayList<>(List.of(PYTHON, Path.of("src/test/mininet", name).toString()));
        command.addAll(List.of(arguments));
        final ProcessBuilder script = new ProcessBuilder(inANetworkNamespaceOfItsOwn(command));
        script.environment().put("TRIMSWITCH", tool(""));
        script.environment().put("TRIMSWITCH_PORT_KIND", kind);
        final Outcome outcome = runLogged(script, 5);
        assumeTrue(outcome.exit() != HOST_TOO_SLOW, outcome.output());
        assertEquals(0, outcome.exit(), outcome.output());
        return outcome.output();
    }

    /**
     * {@code command} in a new network namespace (unshare(1)), its loopback up: the switches, links and hosts a Mininet lab
     * makes, and their interface names, stay out of the host's own namespace and off other users' labs, and go with it.
     */
    static List<String> inANetworkNamespaceOfItsOwn(final List<String> command) {
        final List<String> wrapped = new java.util.ArrayList<>(List.of("unshare", "--net", "sh", "-c", "ip link set lo up && exec \"$0\" \"$@\""));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The command that runs the tool from the test's own classes (the jar is packaged after the tests), with more JVM options. */
    static String tool(final String jvmOptions) {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return java + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow "
            + jvmOptions + " -cp " + System.getProperty("java.class.path") + " io.trimswitch.cli.TrimswitchCommand";
    }

    /** A command's exit code and what it printed (stdout and stderr together). */
    record Outcome(int exit, String output) {
    }

    /**
     * Runs a command with its output in a temporary file; fails the test when it has not finished in {@code minutes}
     * (it is told to stop first, so that a script's trap can remove what it made).
     */
    static Outcome runLogged(final ProcessBuilder command, final long minutes) throws IOException, InterruptedException {
        final Path log = Files.createTempFile("trimswitch-e2e", ".log");
        final Process process = command.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final boolean finished = process.waitFor(minutes, TimeUnit.MINUTES);
        if (!finished) {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        final String output = Files.readString(log);
        Files.deleteIfExists(log);
        assertTrue(finished, String.join(" ", command.command()) + " did not finish in " + minutes + " minutes:\n" + output);
        return new Outcome(process.exitValue(), output);
    }

    /** Whether an executable of that name is on PATH. */
    static boolean onPath(final String command) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
