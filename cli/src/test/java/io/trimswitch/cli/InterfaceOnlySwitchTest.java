package io.trimswitch.cli;

import org.junit.jupiter.api.Test;

import java.io.File;
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
 * A switch of interface ports in a network namespace whose loopback is down, as a freshly made one's is: it runs,
 * prints no warning, and loads none of Netty's datagram classes, which serve UDP ports alone (the metrics endpoint's
 * HTTP server is Netty's too).
 */
class InterfaceOnlySwitchTest {
    @Test
    void aSwitchOfInterfacePortsWarnsOfNothingAndStartsNoUdpInANamespaceWithoutLoopback() throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Path classes = Files.createTempFile("trimswitch-classes", ".log");
        final String tool = String.join(" ", List.of(java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-Xlog:class+load=info:file=" + classes,
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), TrimswitchCommand.class.getName()));
        // A network namespace of its own, unnamed: it and its veth pair go when the process ends.
        final String script = "ip link add p0 type veth peer name p1 && ip link set p0 up && ip link set p1 up && "
            + tool + " run -i 0@p0 -i 1@p1 --duration-s 0.5";
        final Process process = new ProcessBuilder("unshare", "--net", "sh", "-c", script).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
        assumeTrue(!output.contains("unshare failed") && !output.contains("Operation not permitted"), "cannot make a namespace here: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("trimswitch: port 1: interface p1 (AF_PACKET"), output);
        assertFalse(output.contains("WARNING"), output);
        assertFalse(output.contains("loopback"), output);
        final List<String> netty = Files.readAllLines(classes).stream()
            .filter(line -> line.contains(" io.netty.") && line.contains("Datagram")).limit(3).toList();
        Files.delete(classes);
        assertTrue(netty.isEmpty(), "Netty's datagram classes were loaded: " + netty);
    }
}
