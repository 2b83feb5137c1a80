package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

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
 * {@code trimswitch host} through a live {@code trimswitch run}: {@code src/test/sh/ndp_hosts_e2e.sh} puts four Linux
 * hosts in network namespaces behind the switch and runs a 3:1 NDP incast into a port limited to 0.1 Gb/s. Every byte
 * must arrive, the switch must have trimmed, and the senders must have retransmitted what the receiver NACKed. It
 * needs root, iproute2, ping and ethtool; without them it is skipped. The script removes its namespaces whatever happens.
 */
@Tag("host-timing")
class NdpHostsThroughLiveSwitchTest {
    /** The script's exit code when the senders could not even overflow the port: the host, not the hosts' code, fell short. */
    private static final int HOST_TOO_SLOW = 3;

    @Test
    void aThreeToOneNdpIncastThroughATrimmingSwitchDeliversEveryByteWithNackDrivenRetransmissions() throws IOException, InterruptedException {
        final boolean root = "root".equals(System.getProperty("user.name"));
        final boolean tools = List.of("ip", "ping", "ethtool", "python3").stream().allMatch(NdpHostsThroughLiveSwitchTest::onPath);
        assumeTrue(root && tools, "needs root, iproute2, ping, ethtool and python3");

        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String tool = java + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp " + System.getProperty("java.class.path")
            + " io.trimswitch.cli.TrimswitchCommand";
        final Path log = Files.createTempFile("ndp_hosts_e2e", ".log");
        final ProcessBuilder script = new ProcessBuilder("bash", Path.of("src/test/sh", "ndp_hosts_e2e.sh").toString())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        script.environment().put("TRIMSWITCH", tool);
        final Process process = script.start();
        final boolean finished = process.waitFor(4, TimeUnit.MINUTES);
        if (!finished) {
            // The script's trap removes the namespaces when it is told to stop.
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        final String output = Files.readString(log);
        Files.deleteIfExists(log);
        assertTrue(finished, "ndp_hosts_e2e.sh did not finish in 4 minutes:\n" + output);
        assumeTrue(process.exitValue() != HOST_TOO_SLOW, output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("every sender pings the receiver"), output);
        assertTrue(output.contains("all delivered"), output);
        assertTrue(output.contains("ndp-hosts: passed"), output);
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
