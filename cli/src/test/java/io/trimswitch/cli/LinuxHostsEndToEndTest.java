package io.trimswitch.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real Linux hosts through {@code trimswitch run}, behind one switch and behind a fabric of three.
 * One switch: {@code src/test/mininet/linux_hosts.py} makes seven Mininet hosts
 * with vxlan interfaces, behind a switch with two traffic classes (TCP in a deep queue that
 * drops, DSCP 10 in a shallow one that trims), and checks ping between every pair, iperf3 TCP through idle ports
 * with no switch drop, and a 4:1 incast from {@code trimswitch gen} senders at full speed in which nothing is
 * lost, while a TCP flow out of the same egress port, in its own queue, sees no switch drop. It needs root and Mininet, iproute2, ping, ethtool
 * and iperf3; CI has them (installed by .ci/run), so there it must run; elsewhere it is skipped without them.
 */
@org.junit.jupiter.api.Tag("host-timing")
class LinuxHostsEndToEndTest {
    @Test
    void linuxHostsPingEachOtherRunTcpAndAnIncastArrivesWholeOrTrimmed() throws IOException, InterruptedException {
        final String output = HostScripts.run("linux_hosts.py");
        assertTrue(output.contains("e2e: every pair pings"), output);
        assertTrue(output.contains("no switch drop on the TCP flow's ports"), output);
        assertTrue(output.contains("no switch drop on the TCP flow's ports during the incast, which shares its egress port"), output);
        assertTrue(output.contains("none lost"), output);
        assertTrue(output.contains("e2e: passed"), output);
    }

    /**
     * {@code src/test/mininet/live_fabric.py}: two leaves and a spine, three {@code trimswitch run} processes linked by
     * their ports, four hosts; ping and iperf3 across the spine, and an incast trimmed at the spine's downlink and at
     * the receiver's leaf, whose headers the receiver counts as the two switches' trims together.
     */
    @Test
    void aLeafSpineFabricOfLiveSwitchesCarriesPingTcpAndAnIncastTrimmedWhereItOverflows() throws IOException, InterruptedException {
        final String output = HostScripts.run("live_fabric.py");
        assertTrue(output.contains("fabric: every pair pings, across the spine too"), output);
        assertTrue(output.contains("across the spine at"), output);
        assertTrue(output.contains("none lost; the spine trimmed"), output);
        assertTrue(output.contains("fabric: passed"), output);
    }
}
