package io.trimswitch.live;

import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.counters.CounterFile;
import io.trimswitch.dataplane.counters.CounterTotals;
import io.trimswitch.dataplane.counters.CounterType;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.NdpHeader;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import io.trimswitch.live.gauges.LiveGauges;
import io.trimswitch.live.settings.LiveSettings;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live switch on loopback: three hosts are plain UDP sockets that speak VXLAN to its ports. Its counters are read
 * as {@code stats} and the metrics endpoint read them: from its registry, added up per port.
 */
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
        start(settings -> settings);
    }

    /** Three hosts on ports 0..2 with their remotes configured, then whatever {@code more} changes. */
    private void start(final java.util.function.UnaryOperator<Settings> more) throws IOException {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4));
        settings = settings.withRealtime(x -> x.withIdle(Settings.Idle.YIELD));
        for (int port = 0; port < hosts.length; port++) {
            hosts[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            hosts[port].configureBlocking(false);
            hosts[port].setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
            final java.util.List<Settings.Port> ports = new java.util.ArrayList<>(settings.ports());
            ports.add(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withVni(VNI)
                .withRemote("127.0.0.1:" + ((InetSocketAddress) hosts[port].getLocalAddress()).getPort()));
            settings = settings.withPorts(ports);
        }
        settings = settings.withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
        live = new LiveSwitch(more.apply(settings));
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

    /** Every attached port's counters, as the switch adds them up from its registry. */
    private List<LiveSwitch.PortStats> stats() {
        return live.stats();
    }

    private LiveSwitch.PortStats portStats(final int port) {
        return stats().get(port);
    }

    /** Polls the switch's counters until {@code done} holds, at most two seconds; the last read either way. */
    private LiveSwitch.PortStats awaitStats(final int port, final Predicate<LiveSwitch.PortStats> done) throws Exception {
        return Await.until(STATS_WITHIN, () -> portStats(port), done);
    }

    private static long drops(final LiveSwitch.PortStats port, final String reason) {
        return port.drops().getOrDefault(reason, 0L);
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

    private static long dropsOnAllPorts(final List<LiveSwitch.PortStats> stats, final String reason) {
        return stats.stream().mapToLong(port -> drops(port, reason)).sum();
    }

    @ParameterizedTest(name = "forwarding {0}")
    @ValueSource(strings = {"l2", "subnet"})
    void framesToAReservedGroupAddressAreNeverForwardedAndCountedWhereTheyCameIn(final String mode) throws Exception {
        start(settings -> settings.withForwarding(x -> x.withMode(Settings.choice("forwarding.mode", mode, Settings.ForwardingMode.values()))));
        // STP's bridge group, 802.3x PAUSE, LLDP: link-local by IEEE 802.1D; the address after them is an ordinary group.
        for (final long reserved : new long[] {0x0180_C200_0000L, 0x0180_C200_0001L, 0x0180_C200_000EL, 0x0180_C200_000FL}) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, reserved));
        }
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, 0x0180_C200_0010L));
        assertTrue(receive(1, 2000) != null, "the frame to 01:80:c2:00:00:10 is forwarded");
        if ("l2".equals(mode)) {
            assertTrue(receive(2, 2000) != null, "a bridge floods it");
        }
        final LiveSwitch.PortStats port0 = awaitStats(0, stats -> drops(stats, "reservedGroup") == 4);
        assertEquals(4, drops(port0, "reservedGroup"), port0.toString());
        assertEquals(5, port0.rxDatagrams());
        assertNull(receive(1, 200), "nothing else reached port 1");
        assertNull(receive(2, 100), "nor port 2");
        assertEquals(0, dropsOnAllPorts(stats(), "reservedGroup") - 4, "counted once, at the port it came in: " + stats());
    }

    @Test
    void anNdpAckLongerThanAHeaderIsCountedAsOversizeControlAndForwardedAsData() throws Exception {
        start();
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null && receive(2, 2000) != null, "host B is learned on port 1");
        for (final int length : new int[] {64, 1300}) {
            final byte[] ack = new byte[length];
            final UnsafeBuffer buffer = new UnsafeBuffer(ack);
            WorkloadFrames.writeData(buffer, 0, length, 0, 1, 0, 0, 0, NdpHeader.DEFAULT_UDP_PORT);
            EthernetHeader.source(buffer, 0, HOST_A);
            EthernetHeader.destination(buffer, 0, HOST_B);
            NdpHeader.flags(buffer, EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH + io.trimswitch.dataplane.codec.UdpHeader.LENGTH, NdpHeader.FLAG_ACK);
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, ack);
            final byte[] arrived = receive(1, 2000);
            assertTrue(arrived != null && arrived.length == VxlanHeader.LENGTH + length, length + " B: delivered whole");
        }
        final CounterTotals totals = Await.until(STATS_WITHIN, () -> CounterTotals.read(live.counters().reader()),
            read -> read.get(0, CounterType.OVERSIZE_CONTROL_PACKETS) >= 1);
        assertEquals(1, totals.get(0, CounterType.OVERSIZE_CONTROL_PACKETS), "only the 1300-byte ACK, where it came in");
        assertEquals(0, totals.get(1, CounterType.OVERSIZE_CONTROL_PACKETS));
    }

    @Test
    void theDropsMetricIsExportedAtZeroForEveryReasonBeforeAnyDropAndCountsOneWhenItCame() throws Exception {
        start();
        final String quiet = scrape();
        for (final int port : new int[] {0, 1, 2}) {
            assertTrue(quiet.contains("trimswitch_port_drops_total{port=\"" + port + "\",reason=\"tooShort\"} 0.0"), quiet);
        }
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, new byte[4]);
        awaitStats(0, stats -> drops(stats, "tooShort") == 1);
        final String counted = scrape();
        assertTrue(counted.contains("trimswitch_port_drops_total{port=\"0\",reason=\"tooShort\"} 1.0"), counted);
        assertTrue(counted.contains("trimswitch_port_drops_total{port=\"1\",reason=\"tooShort\"} 0.0"), counted);
    }

    private String scrape() throws Exception {
        final HttpResponse<String> scrape = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode());
        return scrape.body();
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
    void aHostSendingFromEverNewAddressesFillsTheMacTableButNoMoreAndItsFramesAreStillFlooded() throws Exception {
        start(settings -> settings.withForwarding(x -> x.withMacTableSize(16)));
        final int sources = 100;
        for (int i = 0; i < sources; i++) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(0x02_00_00_00_10_00L + i, EthernetHeader.BROADCAST));
        }
        for (final int port : new int[] {1, 2}) {
            int flooded = 0;
            while (flooded < sources && receive(port, 2000) != null) {
                flooded++;
            }
            assertEquals(sources, flooded, "every frame reaches the other hosts, learned or not: port " + port);
        }
        final LiveSwitch.MacTable table = live.macs();
        assertEquals(16, table.macs().size(), "the table holds what it may, and no more");
        assertEquals(sources - 16, table.notLearned());
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, 0x02_00_00_00_10_00L));
        assertTrue(receive(0, 2000) != null, "an address it did learn is forwarded to its port");
        assertNull(receive(2, 200), "and not flooded");
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
        final List<LiveSwitch.PortStats> stats = Await.until(STATS_WITHIN, this::stats,
            all -> all.get(0).rxDatagrams() >= 4 && dropsOnAllPorts(all, "badIpv4Checksum") >= 1);

        final LiveSwitch.PortStats port0 = stats.get(0);
        assertEquals(0, port0.port());
        assertEquals(4, port0.rxDatagrams());
        assertEquals(1, drops(port0, "tooShort"));
        assertEquals(1, drops(port0, "badVxlanFlags"));
        assertEquals(1, drops(port0, "wrongVni"));
        assertEquals(1, drops(port0, "badIpv4Checksum"), "the bad-checksum frame is dropped once, where it came in: " + stats);
        assertEquals(1, dropsOnAllPorts(stats, "badIpv4Checksum"), "not once per port it would have been flooded to: " + stats);
        assertNull(receive(1, 100));

        // Another process's view: its own mapping of the counters file, through Agrona's reader.
        final CounterTotals file = CounterTotals.read(CounterFile.open(live.counters().file()));
        assertEquals(4, file.get(0, CounterType.RX_DATAGRAMS));
        assertEquals(Long.valueOf(1), file.byName(0, CounterType.DROPS).get("wrongVni"));
        assertTrue(file.ports().containsAll(java.util.Set.of(0, 1, 2)) && !file.ports().contains(3),
            "port 3, which the fabric has room for and the switch has not, keeps its counters out of the file: " + file.ports());
        live.stop();
        assertFalse(Files.exists(dir.resolve("switch.counters")), "a stopped switch removes its counters file");
        assertEquals(0, live.buffersInUse(), "every buffer is back in the pool");
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void aBurstFasterThanItsLinkIsPacedInNotDroppedAtAnIdlePortOfTheSameRate() throws Exception {
        // 1 Gb/s links: a 1400 B frame takes 11.2 µs, and the host sends faster than that. Entering as fast as the
        // socket hands them over, the burst would overflow the 16-packet queue of the idle egress port.
        start(settings -> settings.withFabric(x -> x.withPortRateGbps(1.0)));
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "host B is learned on port 1");
        final int burst = 150;
        final int arrived = burstFromPort0To(1, burst);
        final LiveSwitch.PortStats ingress = Await.untilOrHostTooSlow(STATS_WITHIN, "the switch's socket received all " + burst + " datagrams",
            () -> portStats(0), stats -> stats.rxDatagrams() >= burst);
        final LiveSwitch.PortStats egress = portStats(1);
        assertEquals(burst, arrived, "every frame of the burst is forwarded: " + egress);
        assertTrue(egress.drops().isEmpty() && ingress.drops().isEmpty(), "nothing dropped: " + ingress + egress);
        assertTrue(egress.maxDataQueue() <= 2, "paced at the link's rate, the burst never queues: " + egress);
    }

    @Test
    @Tag("host-timing")
    void sleepingWhenIdleTheThreadAlsoSleepsBetweenThePacketsOfASlowPortInsteadOfSpinning() throws Exception {
        // 0.01 Gb/s: a 1400 B frame takes 1.12 ms on the wire; 40 of them queue and leave one by one over 45 ms.
        start(settings -> {
            final java.util.List<Settings.Port> ports = new java.util.ArrayList<>(settings.ports());
            ports.set(1, ports.get(1).withRateGbps(0.01));
            return settings.withRealtime(x -> x.withIdle(Settings.Idle.POLL)).withFabric(x -> x.withDataQueuePackets(64)).withPorts(ports);
        });
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "host B is learned on port 1");
        final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        final long pipelineThread = Thread.getAllStackTraces().keySet().stream()
            .filter(thread -> thread.getName().equals("trimswitch-pipelines-0")).findFirst().orElseThrow().threadId();
        final int burst = 40;
        final long sent = System.nanoTime();
        for (int i = 0; i < burst; i++) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B, 1400));
        }
        // Measured once the first few have left: by then every frame has been read and queued, the code compiled.
        final int first = 5;
        for (int i = 0; i < first; i++) {
            assertTrue(receive(1, 2000) != null, "frame " + i + " of the burst arrives");
        }
        final long cpuBefore = cpu.getThreadCpuTime(pipelineThread);
        final long wallBefore = System.nanoTime();
        int arrived = first;
        while (arrived < burst && receive(1, 2000) != null) {
            arrived++;
        }
        final long end = System.nanoTime();
        final long wall = end - wallBefore;
        final long busy = cpu.getThreadCpuTime(pipelineThread) - cpuBefore;
        assertEquals(burst, arrived, "every frame of the burst is forwarded: " + portStats(1));
        assertTrue(end - sent >= burst * 1_120_000L, "the port sent no faster than its link: " + (end - sent) / 1e6 + " ms");
        assertTrue(busy < wall / 2, "the thread slept between departures: " + busy / 1e6 + " ms of CPU in " + wall / 1e6 + " ms");
    }

    @Test
    void withTrafficClassesStatsListEachQueueAndAnUntrimmableIncastWaitsInItsDeepQueue() throws Exception {
        start(settings -> settings.withFabric(x -> x.withPortRateGbps(1.0)).withQos(q -> q.withQueues(
            java.util.List.of(Settings.Queue.DEFAULTS.withPackets(512).withDiscard(Settings.Discard.DROP), Settings.Queue.DEFAULTS))
            .withDscpToTc(java.util.Map.of(10, 1))));
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
        final LiveSwitch.PortStats egress = awaitStats(1, stats -> stats.queues().get(0).queued() >= 2 * each);
        assertEquals(2 * each, arrived, "nothing of the DSCP-0 incast is lost in its 512-packet queue: " + egress);
        final List<LiveSwitch.QueueStats> queues = egress.queues();
        assertEquals(2, queues.size(), egress.toString());
        assertEquals("drop", queues.get(0).discard());
        assertEquals(2 * each, queues.get(0).queued());
        assertEquals(0, queues.get(0).overflowed());
        assertEquals("trim", queues.get(1).discard());
        assertEquals(0, queues.get(1).queued(), "DSCP 0 never reaches the trimming queue");
    }

    @Test
    @org.junit.jupiter.api.Tag("host-timing")
    void twoPipelineShardsForwardAcrossEachOtherWithoutDropsAndShareWhatTheyLearn() throws Exception {
        // Ports 0 and 1 on pipeline 0 (thread 0), port 2 on pipeline 1 (thread 1); 1 Gb/s links.
        start(settings -> settings.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2).withPortRateGbps(1.0))
            .withRealtime(x -> x.withPipelineThreads(2)));
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
        final LiveSwitch.PortStats ingress = Await.untilOrHostTooSlow(STATS_WITHIN, "the switch's socket received all " + burst + " datagrams",
            () -> portStats(0), stats -> stats.rxDatagrams() >= burst);
        final LiveSwitch.PortStats egress = portStats(2);
        assertEquals(burst, arrived, "every frame crosses to the other thread's port: " + egress);
        assertTrue(egress.drops().isEmpty() && ingress.drops().isEmpty(), "nothing dropped: " + ingress + egress);
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
            final HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("trimswitch_port_rx_datagrams_total{port=\"0\"}"), scrape.body());
            assertTrue(System.nanoTime() - started < 3_000_000_000L, "a scrape was answered while 20 clients held connections open");
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST));
            assertTrue(receive(1, 2000) != null, "forwarding goes on");
        } finally {
            for (final java.net.Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void aMalformedFrameToBeFloodedIsCountedOnceOnThePortItCameInOn() throws Exception {
        start();
        for (int i = 0; i < 2; i++) {
            final byte[] bad = frame(HOST_A, EthernetHeader.BROADCAST);
            bad[EthernetHeader.LENGTH] = 0x25; // IPv4 with a header of 5 bytes: no such header
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, bad);
        }
        final LiveSwitch.PortStats in = awaitStats(0, stats -> drops(stats, "badIpv4Header") >= 2);
        assertEquals(2, drops(in, "badIpv4Header"), in.toString());
        for (int port = 1; port < 3; port++) {
            assertTrue(portStats(port).drops().isEmpty(), "nothing counted on a port the frame would have been flooded to: " + portStats(port));
        }
        assertNull(receive(1, 100), "and nothing flooded");
    }

    @Test
    void aPortTakesFramesOnlyFromItsOwnHost() throws Exception {
        start();
        sendFromStranger("127.0.0.2", 0);
        final LiveSwitch.PortStats port0 = awaitStats(0, stats -> !stats.drops().isEmpty());
        assertEquals(1, drops(port0, "wrongSource"), port0.toString());
        assertEquals(0, port0.rxPackets(), "nothing from the stranger enters the switch");
        assertNull(receive(1, 100), "nor is it flooded");
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST));
        assertTrue(receive(1, 2000) != null, "the port's own host still gets through");
    }

    @Test
    void aPortWithoutARemoteLearnsItsHostOnceAndThenRefusesAnyOther() throws Exception {
        start(settings -> {
            final java.util.List<Settings.Port> ports = new java.util.ArrayList<>(settings.ports());
            final Settings.Port learned = ports.get(2);
            ports.set(2, learned.withRemotePort(Integer.parseInt(learned.remote().substring(learned.remote().lastIndexOf(':') + 1))).withRemote(null));
            return settings.withPorts(ports);
        });
        send(2, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "the first host is learned and forwarded");
        sendFromStranger("127.0.0.3", 2);
        final LiveSwitch.PortStats port2 = awaitStats(2, stats -> !stats.drops().isEmpty());
        assertEquals(1, drops(port2, "wrongSource"), port2.toString());
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B));
        assertTrue(receive(2, 2000) != null, "traffic for port 2 still goes to the host it learned first");
    }

    @Test
    void aFrameLargerThanTheLargestAPortTakesIsCountedAsOversizeAndNeverCut() throws Exception {
        start();
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 2049));
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 9000));
        final LiveSwitch.PortStats port0 = awaitStats(0, stats -> drops(stats, "oversize") == 2);
        assertEquals(2, drops(port0, "oversize"), port0.toString());
        assertNull(receive(1, 200), "nothing cut to size comes out");
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, EthernetHeader.BROADCAST, 2048));
        final byte[] largest = receive(1, 2000);
        assertTrue(largest != null && largest.length == VxlanHeader.LENGTH + 2048, "the largest frame goes whole");
    }

    @Test
    void routedDropsAreCountedWhereTheFrameCameIn() throws Exception {
        start(settings -> settings.withForwarding(x -> x.withMode(Settings.ForwardingMode.ROUTED)
            .withRoutes(java.util.List.of(new Settings.Route("10.0.1.0/24", 1, "02:00:00:00:00:bb")))));
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
        final LiveSwitch.PortStats port0 = awaitStats(0, stats -> stats.drops().size() == 2);
        assertEquals(1, drops(port0, "ttlExpired"), port0.toString());
        assertEquals(1, drops(port0, "noRoute"), port0.toString());
        assertEquals(3, port0.rxPackets());
    }

    /** Port 0's own MAC in routed mode, where routed frames are addressed. */
    private static final class LiveSettingsMac {
        static final long PORT0 = io.trimswitch.live.settings.LiveSettings.portMac(0);
    }

    @Test
    void aSecondSwitchOnTheSameCountersFileIsRefusedInOneLineAndTheFirstKeepsCounting() throws Exception {
        start();
        final Settings second = Settings.DEFAULTS.withPorts(java.util.List.of(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withRemote("127.0.0.1:9")))
            .withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
        final io.trimswitch.config.ConfigException refused =
            org.junit.jupiter.api.Assertions.assertThrows(io.trimswitch.config.ConfigException.class, () -> new LiveSwitch(second));
        assertEquals("metrics.countersFile: counters file " + second.metrics().countersFile() + " is in use by another switch of this process",
            refused.getMessage());
        send(0, VxlanHeader.FLAG_VNI_VALID, VNI, new byte[4]);
        assertEquals(1, drops(awaitStats(0, stats -> drops(stats, "tooShort") == 1), "tooShort"), "the first switch's counters are intact");
        assertTrue(Files.exists(dir.resolve("switch.counters")));
    }

    /** Blocks shard 0 in a change that ignores interrupts, as a write to a full pipe does, until {@code released}. */
    private void blockShard0(final java.util.concurrent.atomic.AtomicBoolean released, final boolean interruptible) throws Exception {
        final java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
        live.shard(0).submit(() -> {
            blocked.countDown();
            while (!released.get()) {
                if (Thread.interrupted() && interruptible) {
                    Thread.currentThread().interrupt();
                    return;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        });
        assertTrue(blocked.await(2, java.util.concurrent.TimeUnit.SECONDS), "the shard took the change up");
    }

    private static List<String> pipelineThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(name -> name.startsWith("trimswitch-pipelines-") || name.equals(LiveGauges.THREAD_NAME)).sorted().toList();
    }

    @Test
    void aShardBlockedInACallThatIgnoresInterruptsDoesNotHoldUpStopAndWhatItHeldIsCountedInFlight() throws Exception {
        // 1 Mb/s links: a 1400 B frame takes 11.2 ms, so most of a burst of 200 is still inside, waiting on port 0's link,
        // when the shard blocks.
        start(settings -> settings.withFabric(x -> x.withPortRateGbps(0.001)));
        send(1, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_B, EthernetHeader.BROADCAST));
        assertTrue(receive(0, 2000) != null, "host B is learned on port 1");
        final int burst = 200;
        for (int i = 0; i < burst; i++) {
            send(0, VxlanHeader.FLAG_VNI_VALID, VNI, frame(HOST_A, HOST_B, 1400));
        }
        Await.untilOrHostTooSlow(STATS_WITHIN, "the switch read the burst", () -> portStats(0), stats -> stats.rxDatagrams() >= burst);
        final java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            blockShard0(released, false);
            final long before = System.nanoTime();
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), live::stop, "stop is bounded");
            final long tookMillis = (System.nanoTime() - before) / 1_000_000;
            assertTrue(tookMillis < LiveSwitch.STOP_WITHIN_MILLIS + 2_000, "stop gave up on the blocked thread in time: " + tookMillis + " ms");
            assertEquals(List.of("trimswitch-pipelines-0"), live.notStopped());
            assertFalse(Files.exists(dir.resolve("switch.counters")), "the counters file is deleted");
            int delivered = 0;
            while (receive(1, 100) != null) {
                delivered++;
            }
            assertTrue(live.inFlightAtStop() > 0, "the burst was still inside: " + live.inFlightAtStop());
            assertEquals(burst, delivered + live.inFlightAtStop(), "every frame was delivered or counted as in flight at the stop");
        } finally {
            released.set(true);
        }
        assertEquals(List.of(), Await.until(Duration.ofSeconds(5), LiveSwitchTest::pipelineThreads, List::isEmpty),
            "once unblocked, the thread ends by itself");
    }

    @Test
    void aShardBlockedInAnInterruptibleCallIsInterruptedAndStopEndsEveryThreadOfTheSwitch() throws Exception {
        start(settings -> settings.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2)).withRealtime(x -> x.withPipelineThreads(2)));
        final java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            blockShard0(released, true);
            final long before = System.nanoTime();
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), live::stop, "stop is bounded");
            final long tookMillis = (System.nanoTime() - before) / 1_000_000;
            assertTrue(tookMillis < LiveSwitch.STOP_WITHIN_MILLIS, "the blocked thread was interrupted well within the bound: " + tookMillis + " ms");
        } finally {
            released.set(true);
        }
        assertEquals(List.of(), live.notStopped());
        assertEquals(List.of(), pipelineThreads(), "no thread of the switch is left");
        assertFalse(Files.exists(dir.resolve("switch.counters")), "the counters file is deleted");
        assertEquals(0, live.buffersInUse(), "every buffer is back in the pool");
    }

    private static long openFileDescriptors() throws IOException {
        try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    /** Two shards; port 2, on shard 1, binds to {@code lastBind}. */
    private Settings twoShards(final String lastBind) {
        final List<Settings.Port> ports = List.of(
            Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withVni(VNI).withRemote("127.0.0.1:9"),
            Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withVni(VNI).withRemote("127.0.0.1:9"),
            Settings.Port.DEFAULTS.withBind(lastBind).withVni(VNI).withRemote("127.0.0.1:9"));
        return Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2)).withRealtime(x -> x.withPipelineThreads(2))
            .withPorts(ports).withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
    }

    @Test
    void aStartThatFailsGivesBackEveryFileDescriptorThreadAndTheCountersFile() throws Exception {
        // Started and stopped once first: what the process loads once and keeps (Netty's native transport) is no leak.
        final LiveSwitch first = new LiveSwitch(twoShards("127.0.0.1:0"));
        first.start();
        first.stop();
        final long fdsBefore = openFileDescriptors();
        // 192.0.2.1 (TEST-NET-1) is no address of this host: port 2 cannot bind, after shard 0 bound its ports.
        final LiveSwitch failing = new LiveSwitch(twoShards("192.0.2.1:0"));
        final IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, failing::start);
        assertTrue(refused.getMessage().startsWith("port 2: cannot bind /192.0.2.1:0: "), refused.getMessage());
        // At most as many as before: a descriptor another test's thread closes meanwhile must not fail this one.
        final long fdsAfter = Await.until(Duration.ofSeconds(2), LiveSwitchTest::openFileDescriptors, fds -> fds <= fdsBefore);
        assertTrue(fdsAfter <= fdsBefore, "every epoll set, eventfd, socket and file the switch opened is closed: " + fdsAfter + " open, " + fdsBefore + " before");
        assertEquals(List.of(), pipelineThreads(), "no thread of the switch is left");
        assertFalse(Files.exists(dir.resolve("switch.counters")), "the counters file is deleted");
        failing.stop();
        // Its counters file is free for the next switch.
        new LiveSwitch(twoShards("127.0.0.1:0")).stop();
        assertTrue(openFileDescriptors() <= fdsBefore, "a switch made and stopped without starting keeps nothing either");
    }

    @Test
    void aStartOnAnInterfaceThatDoesNotExistGivesBackItsPollersCountersFileAndInterfaceLocks() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(io.trimswitch.interfaces.InterfaceLocks.DIRECTORY.getParent()),
            "interface ports take their locks under /run: root only");
        final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(2).withPortsPerPipeline(2))
            .withRealtime(x -> x.withPipelineThreads(2))
            .withPorts(List.of(Settings.Port.DEFAULTS.withInterfaceName("rbnone0"), Settings.Port.DEFAULTS.withInterfaceName("rbnone1")))
            .withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
        final long fdsBefore = openFileDescriptors();
        final LiveSwitch failing = new LiveSwitch(settings);
        final IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, failing::start);
        assertEquals("port 0: interface rbnone0 does not exist here (ip link show)", refused.getMessage());
        assertTrue(openFileDescriptors() <= fdsBefore, "both shards' epoll sets and eventfds, the counters file and the locks are closed");
        assertFalse(Files.exists(dir.resolve("switch.counters")), "the counters file is deleted");
        // The interfaces are free: another switch takes them.
        new LiveSwitch(settings).stop();
        failing.stop();
    }

    @Test
    void anInterfacePortsRingDropsAreInTheCountersFileOnceAsTheKernelCountsThem() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(io.trimswitch.interfaces.InterfaceLocks.DIRECTORY.getParent()),
            "interface ports take their locks under /run: root only");
        // Made, not started: every port's counters are registered when the switch is made; no interface is opened.
        final Settings settings = Settings.DEFAULTS.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4))
            .withPorts(List.of(Settings.Port.DEFAULTS.withInterfaceName("rbnone0"), Settings.Port.DEFAULTS.withInterfaceName("rbnone1")))
            .withMetrics(x -> x.withCountersFile(dir.resolve("switch.counters").toString()));
        final LiveSwitch made = new LiveSwitch(settings);
        try {
            final java.util.Map<String, List<String>> byCounter = new java.util.TreeMap<>();
            made.counters().reader().forEach((value, id, label) -> {
                // "drops port 0 ringOverflow (gauges)": the counter, then its writer.
                final int writer = label.lastIndexOf(" (");
                byCounter.computeIfAbsent(label.substring(0, writer), counter -> new java.util.ArrayList<>()).add(label.substring(writer + 2, label.length() - 1));
            });
            for (final int port : new int[] {0, 1}) {
                // Other drops have a slot per thread that may count them, added up; the kernel's have one, read from it.
                assertEquals(List.of("gauges"), byCounter.get("drops port " + port + " ringOverflow"),
                    "port " + port + ": the kernel's ring drops are in the file once, sampled by the gauges");
            }
        } finally {
            made.stop();
        }
    }

    @Test
    void theShippedExamplesAreValidSwitches() {
        for (final String example : new String[] {"../config/examples/switch.yaml", "../config/examples/routed.yaml"}) {
            final Settings settings = io.trimswitch.config.SettingsFiles.load(Path.of(example));
            LiveSettings.validate(settings);
            assertTrue(!settings.ports().isEmpty(), example);
        }
    }
}
