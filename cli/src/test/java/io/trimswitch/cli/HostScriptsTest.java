package io.trimswitch.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The end-to-end labs run where they touch nothing of the host's network: a namespace of their own, with only its loopback. */
class HostScriptsTest {
    @Test
    void aLabsCommandRunsInANetworkNamespaceOfItsOwnWithItsLoopbackUp() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && HostScripts.onPath("unshare") && HostScripts.onPath("ip"),
            "needs root, unshare and ip");
        final ProcessBuilder inside = new ProcessBuilder(HostScripts.inANetworkNamespaceOfItsOwn(
            List.of("sh", "-c", "readlink /proc/self/ns/net; ip -o link show | cut -d: -f2 | tr -d ' '; ip -o link show lo | grep -c LOWER_UP")));
        final HostScripts.Outcome outcome = HostScripts.runLogged(inside, 1);
        assertEquals(0, outcome.exit(), outcome.output());
        final List<String> lines = outcome.output().lines().toList();
        assertNotEquals(Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString(), lines.get(0), "another namespace than the tests'");
        assertEquals(List.of("lo", "1"), lines.subList(1, lines.size()), "only its loopback, up: " + outcome.output());
    }
}
