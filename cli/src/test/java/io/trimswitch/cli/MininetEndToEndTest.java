package io.trimswitch.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * trimswitch as Mininet's switch ({@code mininet/trimswitch.py}): Mininet's own pingall over a linear topology of three
 * switches, and the seed's leaf-spine (three spines) with a ping between every pair and an NDP flow from one rack to the
 * other ({@code mininet/leafspine_check.py}). Needs root and Mininet ({@code mn}, {@code mnexec},
 * Debian's python3-mininet, ping); CI installs them. Each lab runs in a network namespace of its own (unshare), so the
 * host's namespace never sees its switches and links.
 */
@Tag("host-timing")
class MininetEndToEndTest {
    private static final String PYTHON = HostScripts.PYTHON;
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern NOTHING_DROPPED = Pattern.compile("Results: 0% dropped \\((\\d+)/\\1 received\\)");

    @BeforeAll
    static void needsRootAndMininet() throws IOException, InterruptedException {
        HostScripts.assumeRootAndMininet();
    }

    @Test
    void mininetsPingallPassesOverALinearTopologyOfTrimswitches() throws IOException, InterruptedException {
        final HostScripts.Outcome mn = run(List.of("mn", "--custom", "mininet/trimswitch.py", "--switch", "trimswitch", "--controller", "none",
            "--topo", "linear,3", "--test", "pingall"));
        assertEquals(0, mn.exit(), mn.output());
        assertTrue(NOTHING_DROPPED.matcher(mn.output()).find(), mn.output());
        assertTrue(mn.output().contains("*** Stopping 3 switches"), mn.output());
    }

    @Test
    void theSeedsLeafSpinePingsEveryPairAndCarriesAnNdpFlowWhole() throws IOException, InterruptedException {
        final HostScripts.Outcome check = run(List.of(PYTHON, "mininet/leafspine_check.py", "mt"));
        assertEquals(0, check.exit(), check.output());
        assertTrue(check.output().contains("check: pingall 0% dropped"), check.output());
        assertTrue(check.output().contains("check: ndp receiver exit 0, 400000 bytes"), check.output());
        assertTrue(check.output().contains("check: passed"), check.output());
    }

    /**
     * Runs a command in the checkout's root with the tool as TRIMSWITCH, the test's own classes (the jar is packaged after
     * the tests), with the JVM options TrimSwitch gives its switches by default.
     */
    private static HostScripts.Outcome run(final List<String> command) throws IOException, InterruptedException {
        final String tool = HostScripts.tool("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms8m -Xmx64m -XX:MaxDirectMemorySize=4g");
        final ProcessBuilder builder = new ProcessBuilder(HostScripts.inANetworkNamespaceOfItsOwn(command)).directory(REPO.toFile());
        builder.environment().put("TRIMSWITCH", tool);
        return HostScripts.runLogged(builder, 3);
    }
}
