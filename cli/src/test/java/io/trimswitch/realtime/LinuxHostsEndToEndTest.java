package io.trimswitch.realtime;

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
 * Real Linux hosts through {@code trimswitch run}, behind one switch and behind a fabric of three.
 * One switch: {@code src/test/sh/linux_hosts_e2e.sh} makes seven hosts in
 * network namespaces with vxlan interfaces, behind a switch with two traffic classes (TCP in a deep queue that
 * drops, DSCP 10 in a shallow one that trims), and checks ping between every pair, iperf3 TCP through idle ports
 * with no switch drop, and a 4:1 incast from {@code trimswitch gen} senders at full speed in which nothing is
 * lost, while a TCP flow out of the same egress port, in its own queue, sees no switch drop. It needs root and iproute2, ping, ethtool
 * and iperf3; CI has them (installed by .ci/run), so there it must run; elsewhere it is skipped without them.
 */
@org.junit.jupiter.api.Tag("host-timing")
class LinuxHostsEndToEndTest {
    /** The script's exit code when the senders could not fill the incast port: the host, not the switch, fell short. */
    private static final int HOST_TOO_SLOW = 3;

    @Test
    void linuxHostsPingEachOtherRunTcpAndAnIncastArrivesWholeOrTrimmed() throws IOException, InterruptedException {
        final String output = runScript("linux_hosts_e2e.sh");
        assertTrue(output.contains("e2e: every pair pings"), output);
        assertTrue(output.contains("no switch drop on the TCP flow's ports"), output);
        assertTrue(output.contains("no switch drop on the TCP flow's ports during the incast, which shares its egress port"), output);
        assertTrue(output.contains("none lost"), output);
        assertTrue(output.contains("e2e: passed"), output);
    }

    /**
     * {@code src/test/sh/live_fabric_e2e.sh}: two leaves and a spine, three {@code trimswitch run} processes linked by
     * their ports, four hosts; ping and iperf3 across the spine, and an incast trimmed at the spine's downlink and at
     * the receiver's leaf, whose headers the receiver counts as the two switches' trims together.
     */
    @Test
    void aLeafSpineFabricOfLiveSwitchesCarriesPingTcpAndAnIncastTrimmedWhereItOverflows() throws IOException, InterruptedException {
        final String output = runScript("live_fabric_e2e.sh");
        assertTrue(output.contains("fabric: every pair pings, across the spine too"), output);
        assertTrue(output.contains("across the spine at"), output);
        assertTrue(output.contains("none lost; the spine trimmed"), output);
        assertTrue(output.contains("fabric: passed"), output);
    }

    /** Runs a script of {@code src/test/sh} with the tool as TRIMSWITCH; skips when the host is too slow for it. */
    private static String runScript(final String name) throws IOException, InterruptedException {
        final boolean root = "root".equals(System.getProperty("user.name"));
        final boolean tools = List.of("ip", "ping", "ethtool", "iperf3", "python3").stream().allMatch(LinuxHostsEndToEndTest::onPath);
        assertTrue((root && tools) || !"true".equals(System.getenv("CI")), "CI runs as root with iproute2, ping, ethtool and iperf3");
        assumeTrue(root && tools, "needs root, iproute2, ping, ethtool and iperf3 (installed by .ci/run)");

        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String tool = java + " --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp " + System.getProperty("java.class.path")
            + " io.trimswitch.cli.TrimswitchCommand";
        final Path log = Files.createTempFile(name, ".log");
        final ProcessBuilder script = new ProcessBuilder("bash", Path.of("src/test/sh", name).toString())
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
