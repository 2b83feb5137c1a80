package io.trimswitch.realtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimswitch.cli.Await;
import io.trimswitch.cli.Cli;
import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live switch on loopback: three hosts are plain UDP sockets that speak VXLAN to its ports. */
class LiveSwitchTest {
    private static final int VNI = 42;
    private static final long HOST_A = 0x0200_0000_00AAL;
    private static final long HOST_B = 0x0200_0000_00BBL;
    /** How long the switch's counters may take to show what it has done. */
    private static final Duration STATS_WITHIN = Duration.ofSeconds(2);

    private final DatagramChannel[] hosts = new DatagramChannel[3];
    private LiveSwitch live;
    private SwitchMetrics metrics;

    @TempDir
    Path dir;

    @AfterEach
    void tearDown() throws IOException {
        if (metrics != null) {
            metrics.close();
        }
        if (live != null) {
            live.stop();
        }
        for (final DatagramChannel host : hosts) {
            if (host != null) {
                host.close();
            }
        }
    }

    private void start() throws IOException {
        start(settings -> { });
    }

    /** Three hosts on ports 0..2 with their remotes configured, then whatever {@code more} changes. */
    private void start(final java.util.function.Consumer<SwitchSettings> more) throws IOException {
        final SwitchSettings settings = new SwitchSettings();
        settings.fabric.pipelines = 1;
        settings.fabric.portsPerPipeline = 4;
        settings.realtime.idle = "yield";
        for (int port = 0; port < hosts.length; port++) {
            hosts[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            hosts[port].configureBlocking(false);
            hosts[port].setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
            final SwitchSettings.Port entry = new SwitchSettings.Port();
            entry.bind = "127.0.0.1:0";
            entry.remote = "127.0.0.1:" + ((InetSocketAddress) hosts[port].getLocalAddress()).getPort();
            entry.vni = VNI;
            settings.ports.add(entry);
        }
        more.accept(settings);
        live = new LiveSwitch(settings);
        live.start();
        metrics = new SwitchMetrics(live, new InetSocketAddress("127.0.0.1", 0));
    }

    /** Host A sends {@code frames} 1400-byte frames to host B at once; returns how many the host on {@code port} got. */
    private int burstFromPort0To(final int port, final int frames) throws Exception {
        for (int i = 0; i < frames; i++) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B, 1400));
        }
        int arrived = 0;
        while (arrived < frames && receive(port, 2000) != null) {
            arrived++;
        }
        return arrived;
    }

    /** A valid frame for {@code port}, sent from an address that is not its host's. */
    private void sendFromStranger(final String address, final int port) throws IOException {
        try (DatagramChannel stranger = DatagramChannel.open().bind(new InetSocketAddress(address, 0))) {
            final ByteBuffer datagram = ByteBuffer.allocate(VxlanHeader.LENGTH + 200);
            VxlanHeader.write(new UnsafeBuffer(datagram), 0, VNI);
            datagram.position(VxlanHeader.LENGTH).put(frame(HOST_A, EthernetHeader.BROADCAST)).flip();
            stranger.send(datagram, live.localAddress(port));
        }
    }

    /** Every port's counters, as {@code trimswitch stats --json} prints them. */
    private JsonNode stats() throws IOException {
        final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:" + metrics.port(), "--json");
        assertEquals(0, stats.exit(), stats.err());
        return new ObjectMapper().readTree(stats.out());
    }

    private JsonNode portStats(final int port) throws IOException {
        return stats().get(port);
    }

    /** Polls the switch's counters until {@code done} holds, at most two seconds; the last read either way. */
    private JsonNode awaitStats(final int port, final Predicate<JsonNode> done) throws Exception {
        return Await.until(STATS_WITHIN, () -> portStats(port), done);
    }

    private byte[] frame(final long source, final long destination) {
        return frame(source, destination, 200);
    }

    /** A UDP/IPv4 frame from 10.0.0.1 to 10.0.1.1, DSCP 0: not trimmable. */
    private byte[] frame(final long source, final long destination, final int length) {
        final byte[] frame = new byte[length];
        final UnsafeBuffer buffer = new UnsafeBuffer(frame);
        WorkloadFrames.writeData(buffer, 0, frame.length, 0, 1, 0, 0, 0, 9999);
        EthernetHeader.source(buffer, 0, source);
        EthernetHeader.destination(buffer, 0, destination);
        return frame;
    }

    private void send(final int fromPort, final int flags, final int vni, final byte[] frame) throws IOException {
        final ByteBuffer datagram = ByteBuffer.allocate(VxlanHeader.LENGTH + frame.length);
        final UnsafeBuffer header = new UnsafeBuffer(datagram);
        VxlanHeader.write(header, 0, vni);
        header.putByte(0, (byte) flags);
        datagram.position(VxlanHeader.LENGTH).put(frame).flip();
        hosts[fromPort].send(datagram, live.localAddress(fromPort));
    }

    /** The next datagram the host on {@code port} receives, or null within the time. */
    private byte[] receive(final int port, final long millis) throws Exception {
        final ByteBuffer datagram = ByteBuffer.allocate(4096);
        return Await.until(Duration.ofMillis(millis),
            () -> hosts[port].receive(datagram) != null ? Arrays.copyOf(datagram.array(), datagram.position()) : null, Objects::nonNull);
    }

    private static long sumOf(final JsonNode stats, final String counter) {
        return stats.findValues(counter).stream().mapToLong(JsonNode::asLong).sum();
    }

    @Test
    void aBroadcastFloodsToEveryOtherHostAndTheReplyGoesOnlyWhereItsDestinationWasLearned() throws Exception {
        start();
        final byte[] broadcast = frame(HOST_A, EthernetHeader.BROADCAST);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, broadcast);
        for (final int port : new int[] {1, 2}) {
            final byte[] datagram = receive(port, 2000);
            assertTrue(datagram != null, "port " + port + " floods the broadcast");
            final UnsafeBuffer bytes = new UnsafeBuffer(datagram);
            assertEquals(VxlanHeader.FLAG_VNI_VALID, VxlanHeader.flags(bytes, 0));
            assertEquals(VNI, VxlanHeader.vni(bytes, 0));
            assertArrayEquals(broadcast, Arrays.copyOfRange(datagram, VxlanHeader.LENGTH, datagram.length), "the frame is carried unchanged");
        }
        assertNull(receive(0, 100), "not back where it came from");

        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, HOST_A));
        assertTrue(receive(0, 2000) != null, "host A was learned on port 0");
        assertNull(receive(2, 200), "a known destination is not flooded");
    }

    @Test
    void datagramsThatAreNotFramesForThePortAreCountedByReasonAndNothingElseHappens() throws Exception {
        start();
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, new byte[4]);
        send(0, 0, VNI, frame(HOST_A, HOST_B));
        send(0, VxlanHeader.FLAG_VNI_VALID, 7, frame(HOST_A, HOST_B));
        final byte[] badChecksum = frame(HOST_A, EthernetHeader.BROADCAST);
        new UnsafeBuffer(badChecksum).putByte(EthernetHeader.LENGTH + Ipv4Header.CHECKSUM_FIELD_OFFSET, (byte) 0x55);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, badChecksum);
        final JsonNode stats = Await.until(STATS_WITHIN, this::stats,
            all -> all.get(0).get("rxDatagrams").asLong() >= 4 && sumOf(all, "badIpv4Checksum") >= 2);

        final JsonNode port0 = stats.get(0);
        assertEquals(0, port0.get("port").asInt());
        assertEquals(4, port0.get("rxDatagrams").asLong());
        assertEquals(1, port0.get("drops").get("tooShort").asLong());
        assertEquals(1, port0.get("drops").get("badVxlanFlags").asLong());
        assertEquals(1, port0.get("drops").get("wrongVni").asLong());
        assertTrue(port0.has("dataQueueDepthP99") && port0.has("headerQueueDepthMax"), "queue depth quantiles: " + port0);
        assertEquals(2, sumOf(stats, "badIpv4Checksum"), "the bad-checksum frame, flooded to two ports, is dropped by the pipeline for its checksum: " + stats);
        assertNull(receive(1, 100));

        final Cli.Result table = Cli.trimswitch("stats", "--metrics", "127.0.0.1:" + metrics.port());
        assertTrue(table.out().contains("tooShort=1"), table.out());
        live.stop();
        assertEquals(0, live.buffersInUse(), "every buffer is back in the pool");
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void aBurstFasterThanItsLinkIsPacedInNotDroppedAtAnIdlePortOfTheSameRate() throws Exception {
        // 1 Gb/s links: a 1400 B frame takes 11.2 µs, and the host sends faster than that. Entering as fast as the
        // socket hands them over, the burst would overflow the 16-packet queue of the idle egress port.
        start(settings -> settings.fabric.portRateGbps = 1.0);
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "host B is learned on port 1");
        final int burst = 150;
        final int arrived = burstFromPort0To(1, burst);
        final JsonNode ingress = Await.untilOrHostTooSlow(STATS_WITHIN, "the switch's socket received all " + burst + " datagrams",
            () -> portStats(0), stats -> stats.get("rxDatagrams").asLong() >= burst);
        final JsonNode egress = portStats(1);
        assertEquals(burst, arrived, "every frame of the burst is forwarded: " + egress);
        assertTrue(!egress.has("drops") && !ingress.has("drops"), "nothing dropped: " + ingress + egress);
        assertTrue(egress.get("dataQueueMaxDepth").asInt() <= 2, "paced at the link's rate, the burst never queues: " + egress);
    }

    @Test
    void withTrafficClassesStatsListEachQueueAndAnUntrimmableIncastWaitsInItsDeepQueue() throws Exception {
        start(settings -> {
            settings.fabric.portRateGbps = 1.0;
            final SwitchSettings.Queue tcp = new SwitchSettings.Queue();
            tcp.packets = 512;
            tcp.discard = "drop";
            settings.qos.queues.add(tcp);
            settings.qos.queues.add(new SwitchSettings.Queue());
            settings.qos.dscpToTc.put(10, 1);
        });
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "host B is learned on port 1");
        final int each = 100;
        for (int i = 0; i < each; i++) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B, 1400));
            send(2, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B, 1400));
        }
        int arrived = 0;
        while (arrived < 2 * each && receive(1, 2000) != null) {
            arrived++;
        }
        final JsonNode egress = awaitStats(1, stats -> stats.has("queues") && stats.get("queues").get(0).get("queued").asLong() >= 2 * each);
        assertEquals(2 * each, arrived, "nothing of the DSCP-0 incast is lost in its 512-packet queue: " + egress);
        final JsonNode queues = egress.get("queues");
        assertEquals(2, queues.size(), egress.toString());
        assertEquals("drop", queues.get(0).get("discard").asText());
        assertEquals(2 * each, queues.get(0).get("queued").asLong());
        assertEquals(0, queues.get(0).get("overflowed").asLong());
        assertEquals("trim", queues.get(1).get("discard").asText());
        assertEquals(0, queues.get(1).get("queued").asLong(), "DSCP 0 never reaches the trimming queue");
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void twoPipelineThreadsForwardAcrossEachOtherWithoutDropsAndShareWhatTheyLearn() throws Exception {
        // Ports 0 and 1 on pipeline 0 (thread 0), port 2 on pipeline 1 (thread 1); 1 Gb/s links.
        start(settings -> {
            settings.fabric.pipelines = 2;
            settings.fabric.portsPerPipeline = 2;
            settings.fabric.portRateGbps = 1.0;
            settings.realtime.pipelineThreads = 2;
        });
        send(2, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null && receive(1, 2000) != null, "thread 1 floods to thread 0's ports");
        // Thread 1 learned host B on port 2 and told thread 0: what port 0 sends to B is not flooded.
        final byte[] toB = Await.until(Duration.ofSeconds(2), () -> {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B));
            return receive(2, 100);
        }, Objects::nonNull);
        assertTrue(toB != null, "thread 0 forwards to thread 1's port");
        while (receive(1, 100) != null) {
            // Frames flooded before thread 0 heard of host B.
        }
        final int burst = 150;
        final int arrived = burstFromPort0To(2, burst);
        assertNull(receive(1, 100), "host B's frames are not flooded once thread 0 knows where it is");
        final JsonNode ingress = Await.untilOrHostTooSlow(STATS_WITHIN, "the switch's socket received all " + burst + " datagrams",
            () -> portStats(0), stats -> stats.get("rxDatagrams").asLong() >= burst);
        final JsonNode egress = portStats(2);
        assertEquals(burst, arrived, "every frame crosses to the other thread's port: " + egress);
        assertTrue(!egress.has("drops") && !ingress.has("drops"), "nothing dropped: " + ingress + egress);
        live.stop();
        assertEquals(0, live.buffersInUse(), "every buffer is back in its thread's share of the pool");
    }

    @Test
    void clientsThatConnectToTheMetricsEndpointAndSayNothingStarveNeitherItNorForwarding() throws Exception {
        start();
        final java.util.List<java.net.Socket> silent = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                silent.add(new java.net.Socket("127.0.0.1", metrics.port()));
            }
            final long started = System.nanoTime();
            final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:" + metrics.port(), "--json");
            assertEquals(0, stats.exit(), stats.err());
            assertTrue(System.nanoTime() - started < 3_000_000_000L, "stats answered while 20 clients held connections open");
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST));
            assertTrue(receive(1, 2000) != null, "forwarding goes on");
        } finally {
            for (final java.net.Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void aPortTakesFramesOnlyFromItsOwnHost() throws Exception {
        start();
        sendFromStranger("127.0.0.2", 0);
        final JsonNode port0 = awaitStats(0, stats -> stats.has("drops"));
        assertEquals(1, port0.get("drops").get("wrongSource").asLong(), port0.toString());
        assertEquals(0, port0.get("rxPackets").asLong(), "nothing from the stranger enters the switch");
        assertNull(receive(1, 100), "nor is it flooded");
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST));
        assertTrue(receive(1, 2000) != null, "the port's own host still gets through");
    }

    @Test
    void aPortWithoutARemoteLearnsItsHostOnceAndThenRefusesAnyOther() throws Exception {
        start(settings -> {
            final SwitchSettings.Port learned = settings.ports.get(2);
            learned.remotePort = Integer.parseInt(learned.remote.substring(learned.remote.lastIndexOf(':') + 1));
            learned.remote = null;
        });
        send(2, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "the first host is learned and forwarded");
        sendFromStranger("127.0.0.3", 2);
        final JsonNode port2 = awaitStats(2, stats -> stats.has("drops"));
        assertEquals(1, port2.get("drops").get("wrongSource").asLong(), port2.toString());
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B));
        assertTrue(receive(2, 2000) != null, "traffic for port 2 still goes to the host it learned first");
    }

    @Test
    void aFrameLargerThanTheLargestAPortTakesIsCountedAsOversizeAndNeverCut() throws Exception {
        start();
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 2049));
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 9000));
        final JsonNode port0 = awaitStats(0, stats -> stats.has("drops") && stats.get("drops").path("oversize").asLong() == 2);
        assertEquals(2, port0.get("drops").get("oversize").asLong(), port0.toString());
        assertNull(receive(1, 200), "nothing cut to size comes out");
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 2048));
        final byte[] largest = receive(1, 2000);
        assertTrue(largest != null && largest.length == VxlanHeader.LENGTH + 2048, "the largest frame goes whole");
    }

    @Test
    void routedDropsAreCountedWhereTheFrameCameIn() throws Exception {
        start(settings -> {
            settings.forwarding.mode = "routed";
            final SwitchSettings.Route route = new SwitchSettings.Route();
            route.prefix = "10.0.1.0/24";
            route.port = 1;
            route.nextHopMac = "02:00:00:00:00:bb";
            settings.forwarding.routes.add(route);
        });
        final byte[] lastHop = frame(HOST_A, LiveSettingsMac.PORT0);
        final UnsafeBuffer bytes = new UnsafeBuffer(lastHop);
        Ipv4Header.ttl(bytes, EthernetHeader.LENGTH, 1);
        Ipv4Header.updateChecksum(bytes, EthernetHeader.LENGTH);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, lastHop);
        final byte[] nowhere = frame(HOST_A, LiveSettingsMac.PORT0);
        final UnsafeBuffer nowhereBytes = new UnsafeBuffer(nowhere);
        Ipv4Header.destination(nowhereBytes, EthernetHeader.LENGTH, 0xC0000201);
        Ipv4Header.updateChecksum(nowhereBytes, EthernetHeader.LENGTH);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, nowhere);
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, LiveSettingsMac.PORT0));
        assertTrue(receive(1, 2000) != null, "a routable frame is routed");
        final JsonNode port0 = awaitStats(0, stats -> stats.path("drops").size() == 2);
        assertEquals(1, port0.get("drops").get("ttlExpired").asLong(), port0.toString());
        assertEquals(1, port0.get("drops").get("noRoute").asLong(), port0.toString());
        assertEquals(3, port0.get("rxPackets").asLong());
    }

    /** Port 0's own MAC in routed mode, where routed frames are addressed. */
    private static final class LiveSettingsMac {
        static final long PORT0 = io.trimswitch.realtime.LiveSettings.portMac(0);
    }

    @Test
    void badRunConfigurationsAreOneClearLineAndStatsWithNoSwitchSaysSo() throws IOException {
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n  - bind: 127.0.0.1:4790\n", "ports[1].bind 127.0.0.1:4790 clashes with ports[0].bind");
        assertRunFails("ports:\n  - bind: 127.0.0.1\n", "ports[0].bind must be host:port");
        assertRunFails("ports:\n  - bind: no.such.host.invalid:4790\n", "unknown host");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    vnii: 3\n", "unknown key");
        assertRunFails("fabric:\n  portRateGbps: 0\nports:\n  - bind: 127.0.0.1:4790\n", "fabric.portRateGbps must be 0.001..10000 Gb/s, got 0.0");
        assertRunFails("mechanism: tofino\n", "ports: a switch to run needs at least one port");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nforwarding:\n  mode: hub\n", "forwarding.mode must be one of l2, routed, subnet");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\n    rateGbps: 0\n", "ports[0].rateGbps must be 0.001..10000 Gb/s, got 0.0");
        assertRunFails("ports:\n  - bind: '[:4790'\n", "ports[0].bind must be host:port or [IPv6]:port");
        assertRunFails("ports:\n  - bind: 0:4790\n", "ports[0].bind: '0' means every interface; write 0.0.0.0 or [::]");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nmetrics:\n  address: 0:9464\n", "metrics.address: '0' means every interface");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nmetrics:\n  address: '[::ffff:0.0.0.0]:9464'\n", "means every interface");
        assertRunFails("ports:\n  - bind: 127.0.0.1:4790\nrealtime:\n  pipelineThreads: 5\n", "realtime.pipelineThreads must be at most 4");
        final String routed = "ports:\n  - bind: 127.0.0.1:4790\nforwarding:\n  mode: routed\n  routes:\n    - {prefix: '";
        assertRunFails(routed + "fd00::/129', port: 0, nextHopMac: '02:00:00:00:00:01'}\n", "forwarding.routes[0].prefix length must be 0..128, got 129");
        assertRunFails(routed + "fd00:::1/64', port: 0, nextHopMac: '02:00:00:00:00:01'}\n", "forwarding.routes[0].prefix: 'fd00:::1' is not an IPv6 address");

        final Cli.Result stats = Cli.trimswitch("stats", "--metrics", "127.0.0.1:1");
        assertEquals(2, stats.exit());
        assertTrue(stats.err().contains("no switch answers at 127.0.0.1:1"), stats.err());
    }

    @Test
    void theShippedExamplesAreValidSwitches() {
        for (final String example : new String[] {"../config/examples/switch.yaml", "../config/examples/routed.yaml"}) {
            final SwitchSettings settings = io.trimswitch.config.SettingsFiles.load(Path.of(example));
            io.trimswitch.realtime.LiveSettings.validate(settings);
            assertTrue(!settings.ports.isEmpty(), example);
        }
    }

    private void assertRunFails(final String yaml, final String expected) throws IOException {
        final Path config = dir.resolve("switch-" + Math.abs(yaml.hashCode()) + ".yaml");
        Files.writeString(config, yaml);
        final Cli.Result run = Cli.trimswitch("run", "--config", config.toString(), "--duration-s", "1");
        assertEquals(2, run.exit(), yaml + run.out() + run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertTrue(run.err().contains(expected), "expected '" + expected + "' in " + run.err());
    }
}
