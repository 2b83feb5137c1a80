package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mininet hosts linked straight to {@code trimswitch run}'s interface ports ({@code src/test/mininet/interface_ports.py}):
 * ping between every pair, iperf3 TCP whose 64 KB offload frames cross the switch whole with no switch drop, and a
 * 3:1 incast of DSCP 10 datagrams into a 0.1 Gb/s port in which every datagram arrives whole or trimmed, and the
 * receiver counts as many headers as the switch sent. Needs root, Mininet, iproute2, ping and iperf3; CI has them.
 */
@Tag("host-timing")
class InterfacePortsEndToEndTest {
    @Test
    void hostsOnVethsPingRunTcpAndAnIncastIntoASlowPortArrivesWholeOrTrimmed() throws IOException, InterruptedException {
        final String output = HostScripts.run("interface_ports.py");
        assertTrue(output.contains("e2e: every pair pings"), output);
        assertTrue(output.contains("no switch drop on the TCP flow's ports"), output);
        assertTrue(output.contains("none lost; the switch counted"), output);
        assertTrue(output.contains("e2e: passed"), output);
    }
}
