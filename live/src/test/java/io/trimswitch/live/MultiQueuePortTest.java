package io.trimswitch.live;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.live.settings.LiveSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static io.trimswitch.live.HostCommands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A port of two receive queues on a switch of two shards, on a two-queue veth whose other end sits in a network namespace
 * the test makes ({@code af_xdp}: a socket per veth queue; {@code af_packet}: two sockets in a fanout group): queue 0 is
 * read by the port's own shard and queue 1 by the other, both forward to the second port, the port's counters are the sum of what each shard read, and nothing is lost uncounted, through its
 * link going down and up and the port being removed and added again. Needs root and AF_XDP: elsewhere skipped.
 */
@Tag("host-timing")
class MultiQueuePortTest {
    private static final Duration WITHIN = Duration.ofSeconds(10);
    private final String suffix = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String hostA = "tsqa" + suffix;
    private final String hostB = "tsqb" + suffix;
    private final String port0 = "tsq0" + suffix;
    private final String port1 = "tsq1" + suffix;
    private LiveSwitch live;

    @BeforeEach
    void makeHosts() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "AF_XDP sockets and network namespaces need root");
        assumeTrue(run("ip", "netns", "add", hostA) == 0 && run("ip", "netns", "add", hostB) == 0, "cannot make network namespaces here");
        assumeTrue(veth(port0, hostA, "10.216.0.1") && veth(port1, hostB, "10.216.0.2"), "cannot make a veth of two queues here");
        final String macB = output("ip", "netns", "exec", hostB, "cat", "/sys/class/net/eth0/address").trim();
        run("ip", "netns", "exec", hostA, "ip", "neigh", "add", "10.216.0.2", "lladdr", macB, "dev", "eth0");
    }

    /** A two-queue veth: {@code name} here, eth0 in {@code host} with {@code address}, no IPv6, checksums filled in. */
    private static boolean veth(final String name, final String host, final String address) throws Exception {
        run("ip", "netns", "exec", host, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1");
        if (run("ip", "link", "add", name, "numtxqueues", "2", "numrxqueues", "2", "type", "veth", "peer", "name", "eth0", "netns", host,
            "numtxqueues", "2", "numrxqueues", "2") != 0) {
            return false;
        }
        run("sysctl", "-qw", "net.ipv6.conf." + name + ".disable_ipv6=1");
        run("ip", "link", "set", name, "up");
        run("ip", "netns", "exec", host, "ip", "link", "set", "eth0", "up");
        run("ip", "netns", "exec", host, "ip", "addr", "add", address + "/24", "dev", "eth0");
        run("ip", "netns", "exec", host, "ethtool", "-K", "eth0", "tx", "off");
        return true;
    }

    @AfterEach
    void remove() throws Exception {
        if (live != null) {
            live.stop();
        }
        run("ip", "link", "del", port0);
        run("ip", "link", "del", port1);
        run("ip", "netns", "del", hostA);
        run("ip", "netns", "del", hostB);
    }

    private static String output(final String... words) throws Exception {
        final Process process = new ProcessBuilder(words).redirectErrorStream(true).start();
        final String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return text;
    }

    private Settings settings(final String kind, final int queues) {
        return Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(4))
            .withRealtime(x -> x.withPipelineThreads(2).withIdle(Settings.Idle.POLL))
            .withPorts(List.of(Settings.Port.DEFAULTS.withInterfaceName(port0).withKind(kind).withQueues(queues),
                Settings.Port.DEFAULTS.withInterfaceName(port1).withKind(kind)));
    }

    private void start(final String kind) {
        live = new LiveSwitch(LiveSettings.validate(settings(kind, 2)));
        try {
            live.start();
        } catch (final IllegalStateException e) {
            assumeTrue(!e.getMessage().contains("CONFIG_XDP_SOCKETS") && !e.getMessage().contains("no BPF"), e.getMessage());
            throw e;
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_xdp", "af_packet"})
    void framesOnBothQueuesAreForwardedByBothShardsAndCountedOnceOnThePort(final String kind) throws Exception {
        start(kind);
        final String line = live.describePorts().get(0);
        assertTrue(line.contains("receive queues 0 on thread 0, 1 on thread 1"), line);
        assertEquals(List.of(0, 1), live.portViews(live.settings()).get(0).queueThreads());
        final long[] perThread = forwardFlows();
        assertTrue(perThread[0] > 0 && perThread[1] > 0, "both shards read some of the 64 flows: " + perThread[0] + " and " + perThread[1]);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"af_xdp", "af_packet"})
    void aMultiQueuePortForwardsOnBothQueuesAgainAfterItsLinkFallsAndAfterItIsRemovedAndAddedAgain(final String kind) throws Exception {
        start(kind);
        forwardFlows();
        run("ip", "link", "set", port0, "down");
        Await.untilOrHostTooSlow(WITHIN, "link down", () -> live.linksUp().get(0), up -> !up);
        run("ip", "link", "set", port0, "up");
        Await.untilOrHostTooSlow(WITHIN, "link up", () -> live.linksUp().get(0), up -> up);
        final long[] afterLink = forwardFlows();
        assertTrue(afterLink[1] > 0, "the other shard reads queue 1 of the port's new socket");
        live.removePort(0);
        assertFalse(output("ip", "link", "show", port0).contains("xdp"), "the removed port left no XDP program behind");
        live.addPort(0, port0);
        Await.untilOrHostTooSlow(WITHIN, "port added again", () -> live.linksUp().get(0), up -> up);
        final long[] afterAdd = forwardFlows();
        assertTrue(afterAdd[0] > 0 && afterAdd[1] > 0, "both shards read the port added again: " + afterAdd[0] + " and " + afterAdd[1]);
    }

    @Test
    void moreQueuesThanTheInterfaceHasIsRefusedInOneLine() {
        live = new LiveSwitch(LiveSettings.validate(settings("af_xdp", 3)));
        final IllegalStateException refused = assertThrows(IllegalStateException.class, live::start);
        assumeTrue(!refused.getMessage().contains("CONFIG_XDP_SOCKETS") && !refused.getMessage().contains("no BPF"), refused.getMessage());
        assertEquals("port 0: interface " + port0 + " has 2 receive queues, fewer than the port's queues: 3 (ethtool -l " + port0
            + "): set queues: 2 or fewer", refused.getMessage());
    }

    /**
     * Host A sends 20 datagrams on each of 64 flows (minimal frames); returns, per shard, the frames of port 0 it read.
     * Every frame host A sent is received by port 0 or counted by the kernel (ringOverflow, fillRingEmpty); every frame received is sent out of port
     * 1, arriving at host B, or counted as dropped; port 0's received count is the sum of the two shards'.
     */
    private long[] forwardFlows() throws Exception {
        final long[] before = readBy();
        final long sentBefore = counter(hostA, "tx_packets");
        final long arrivedBefore = counter(hostB, "rx_packets");
        final LiveSwitch.PortStats in0 = live.stats().get(0);
        final LiveSwitch.PortStats out0 = live.stats().get(1);
        final String send = "import socket\n"
            + "for i in range(64):\n"
            + "    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            + "    s.bind(('10.216.0.1', 21000 + i))\n"
            + "    for j in range(20):\n"
            + "        s.sendto(b'x' * 18, ('10.216.0.2', 9))\n";
        assertEquals(0, run("ip", "netns", "exec", hostA, "/usr/bin/python3", "-c", send), "the flows were sent");
        // Read with the switch's counts: host A may still answer host B's ARP request meanwhile.
        final Counts counts = Await.untilOrHostTooSlow(WITHIN, "every frame received and sent on",
            () -> new Counts(live.stats(), counter(hostA, "tx_packets") - sentBefore), now -> {
                final long received = now.stats().get(0).rxDatagrams() - in0.rxDatagrams();
                final long lost = drops(now.stats().get(0), "ringOverflow") - drops(in0, "ringOverflow")
                    + drops(now.stats().get(0), "fillRingEmpty") - drops(in0, "fillRingEmpty");
                final long forwarded = now.stats().get(1).txPackets() - out0.txPackets() + dropsTotal(now.stats().get(1)) - dropsTotal(out0);
                return received + lost == now.sent() && forwarded == received;
            });
        assertNull(live.fault(), "no shard's thread failed");
        assertTrue(counts.sent() >= 64 * 20, "host A sent " + counts.sent());
        final long[] after = readBy();
        final long received = counts.stats().get(0).rxDatagrams() - in0.rxDatagrams();
        assertEquals(received, after[0] - before[0] + after[1] - before[1], "the port's frames are the sum of the two shards'");
        final long out = counts.stats().get(1).txPackets() - out0.txPackets();
        Await.untilOrHostTooSlow(WITHIN, "host B got what port 1 sent", () -> counter(hostB, "rx_packets") - arrivedBefore, got -> got >= out);
        return new long[] {after[0] - before[0], after[1] - before[1]};
    }

    /** The switch's counts of every port, and the frames host A sent since the round began. */
    private record Counts(List<LiveSwitch.PortStats> stats, long sent) {
    }

    private static long drops(final LiveSwitch.PortStats port, final String reason) {
        return port.drops().getOrDefault(reason, 0L);
    }

    private static long dropsTotal(final LiveSwitch.PortStats port) {
        return port.drops().values().stream().mapToLong(Long::longValue).sum();
    }

    private static long counter(final String host, final String name) throws Exception {
        return Long.parseLong(output("ip", "netns", "exec", host, "cat", "/sys/class/net/eth0/statistics/" + name).trim());
    }

    /** Port 0's frames read by each shard's thread so far, as the counters name them: the port's own, and thread 1's. */
    private long[] readBy() {
        final java.util.Map<String, Long> byName = CounterTotals.read(live.counters().reader()).byName(0, CounterType.RX_DATAGRAMS);
        return new long[] {byName.getOrDefault("", 0L), byName.getOrDefault("thread 1", 0L)};
    }
}
