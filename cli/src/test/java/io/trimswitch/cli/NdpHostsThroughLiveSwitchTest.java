package io.trimswitch.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;


import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code trimswitch host} through a live {@code trimswitch run}: {@code src/test/mininet/ndp_hosts.py} puts four Mininet
 * hosts with vxlan interfaces behind the switch and runs a 3:1 NDP incast into a port limited to 0.1 Gb/s. Every byte
 * must arrive, the switch must have trimmed, and the senders must have retransmitted what the receiver NACKed. It
 * needs root, Mininet, iproute2, ping, ethtool and iperf3; without them it is skipped. The script removes its lab whatever happens.
 */
@Tag("host-timing")
class NdpHostsThroughLiveSwitchTest {
    @Test
    void aThreeToOneNdpIncastThroughATrimmingSwitchDeliversEveryByteWithNackDrivenRetransmissions() throws IOException, InterruptedException {
        final String output = HostScripts.run("ndp_hosts.py");
        assertTrue(output.contains("every sender pings the receiver"), output);
        assertTrue(output.contains("all delivered"), output);
        assertTrue(output.contains("ndp-hosts: passed"), output);
    }
}
