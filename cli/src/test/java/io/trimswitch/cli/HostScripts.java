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

/** The end-to-end scripts of {@code src/test/sh}, which build Linux hosts in network namespaces around live switches. */
public final class HostScripts {
    /** A script's exit code when the senders could not fill the incast port: the host, not the switch, fell short. */
    private static final int HOST_TOO_SLOW = 3;

    private HostScripts() {
    }

    /** Runs a script of {@code src/test/sh}, with {@code arguments}, the tool as TRIMSWITCH; skips when the host is too slow for it. */
    public static String run(final String name, final String... arguments) throws IOException, InterruptedException {
        final boolean root = "root".equals(System.getProperty("user.name"));
        final boolean tools = List.of("ip", "ping", "ethtool", "iperf3", "python3").stream().allMatch(HostScripts::onPath);
        assertTrue((root && tools) || !"true".equals(System.getenv("CI")), "CI runs as root with iproute2, ping, ethtool and iperf3");
        assumeTrue(root && tools, "needs root, iproute2, ping, ethtool and iperf3 (installed by .ci/run)");

        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String tool = java + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp " + System.getProperty("java.class.path")
            + " io.trimswitch.cli.TrimswitchCommand";
        final Path log = Files.createTempFile(name, ".log");
        final List<String> command = new java.util.ArrayList<>(List.of("bash", Path.of("src/test/sh", name).toString()));
        command.addAll(List.of(arguments));
        final ProcessBuilder script = new ProcessBuilder(command)
            .redirectErrorStream(true).redirectOutput(log.toFile());
        script.environment().put("TRIMSWITCH", tool);
        final Process process = script.start();
        final boolean finished = process.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            // The script's trap removes the namespaces when it is told to stop.
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        final String output = Files.readString(log);
        Files.deleteIfExists(log);
        assertTrue(finished, name + " did not finish in 5 minutes:\n" + output);
        assumeTrue(process.exitValue() != HOST_TOO_SLOW, output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    private static boolean onPath(final String command) {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
