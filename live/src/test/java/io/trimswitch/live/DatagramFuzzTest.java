package io.trimswitch.live;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.trimswitch.config.Settings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.codec.VxlanHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile datagrams at a live switch's port: any bytes, or any frame behind a valid VXLAN header (its IPv4 checksum
 * made right or left as it is). Whatever arrives is forwarded to a host once or counted as dropped with a reason, what
 * a host receives is never a cut packet passed off as whole, and no thread of the switch fails.
 */
class DatagramFuzzTest {
    private static final int VNI = 42;
    private static final int PORTS = 3;
    /** First byte of an input: bit 0 puts the rest behind a valid VXLAN header, bit 1 then makes its IPv4 checksum right. */
    private static final int BEHIND_VXLAN = 1;
    private static final int FIX_IPV4_CHECKSUM = 2;
    private static final DatagramChannel[] HOSTS = new DatagramChannel[PORTS];
    private static final ByteBuffer RECEIVED = ByteBuffer.allocateDirect(65_536);
    private static final UnsafeBuffer RECEIVED_VIEW = new UnsafeBuffer(RECEIVED);
    private static LiveSwitch live;
    private static long delivered;

    @BeforeAll
    static void start() throws IOException {
        Settings settings = Settings.DEFAULTS;
        settings = settings.withFabric(x -> x.withPipelines(1).withPortsPerPipeline(4));
        settings = settings.withRealtime(x -> x.withIdle(Settings.Idle.YIELD));
        // The model's table, 10.0.p.0/24 to port p: every frame that parses has one place to go, or none.
        settings = settings.withForwarding(x -> x.withMode(Settings.ForwardingMode.SUBNET));
        settings = settings.withMetrics(x -> x.withAddress(null));
        // In a directory of its own: the switch keeps its files only where no one else may write.
        directory = java.nio.file.Files.createTempDirectory("fuzzed-switch");
        final String counters = directory.resolve("switch.counters").toString();
        settings = settings.withMetrics(x -> x.withCountersFile(counters));
        for (int port = 0; port < PORTS; port++) {
            HOSTS[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            HOSTS[port].configureBlocking(false);
            HOSTS[port].setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            final java.util.List<Settings.Port> ports = new java.util.ArrayList<>(settings.ports());
            ports.add(Settings.Port.DEFAULTS.withBind("127.0.0.1:0").withVni(VNI)
                .withRemote("127.0.0.1:" + ((InetSocketAddress) HOSTS[port].getLocalAddress()).getPort()));
            settings = settings.withPorts(ports);
        }
        live = new LiveSwitch(settings);
        live.start();
    }

    private static java.nio.file.Path directory;

    @AfterAll
    static void stop() throws IOException {
        live.stop();
        for (final DatagramChannel host : HOSTS) {
            host.close();
        }
        java.nio.file.Files.deleteIfExists(directory);
    }

    @FuzzTest
    void everyDatagramIsForwardedOrCountedByReason(final byte[] input) throws Exception {
        if (input.length == 0) {
            return;
        }
        final byte[] datagram = datagram(input);
        final long before = accountedFor();
        HOSTS[0].send(ByteBuffer.wrap(datagram), live.localAddress(0));
        long accounted = accountedFor() - before;
        final long deadline = System.nanoTime() + 3_000_000_000L;
        while (accounted < 1 && System.nanoTime() < deadline) {
            // A short pause, not a spin: the switch's threads share the host's cores with this one.
            LockSupport.parkNanos(20_000);
            accounted = accountedFor() - before;
        }
        assertNull(live.fault(), "no thread of the switch failed");
        assertEquals(1, accounted, "the datagram forwarded once or dropped with a reason");
    }

    private static byte[] datagram(final byte[] input) {
        final int mode = input[0];
        if ((mode & BEHIND_VXLAN) == 0) {
            return java.util.Arrays.copyOfRange(input, 1, input.length);
        }
        final byte[] datagram = new byte[VxlanHeader.LENGTH + input.length - 1];
        final UnsafeBuffer bytes = new UnsafeBuffer(datagram);
        VxlanHeader.write(bytes, 0, VNI);
        System.arraycopy(input, 1, datagram, VxlanHeader.LENGTH, input.length - 1);
        final int ip = VxlanHeader.LENGTH + EthernetHeader.LENGTH;
        if ((mode & FIX_IPV4_CHECKSUM) != 0 && datagram.length >= ip + Ipv4Header.MIN_LENGTH
            && Ipv4Header.headerLength(bytes, ip) >= Ipv4Header.MIN_LENGTH && ip + Ipv4Header.headerLength(bytes, ip) <= datagram.length) {
            Ipv4Header.updateChecksum(bytes, ip);
        }
        return datagram;
    }

    /** Datagrams the hosts have received, plus every drop the switch counted, on every port. */
    private static long accountedFor() throws IOException {
        for (final DatagramChannel host : HOSTS) {
            RECEIVED.clear();
            while (host.receive(RECEIVED) != null) {
                delivered++;
                assertWhole(RECEIVED.position());
                RECEIVED.clear();
            }
        }
        long dropped = 0;
        for (final LiveSwitch.PortStats port : live.stats()) {
            dropped += port.drops().values().stream().mapToLong(Long::longValue).sum();
        }
        return delivered + dropped;
    }

    /** A forwarded frame holds every byte its IP header announces. */
    private static void assertWhole(final int datagramLength) {
        final int frame = VxlanHeader.LENGTH;
        final int length = datagramLength - frame;
        assertTrue(length >= EthernetHeader.LENGTH, "a frame shorter than its Ethernet header was forwarded");
        final int ip = frame + EthernetHeader.LENGTH;
        final int etherType = EthernetHeader.etherType(RECEIVED_VIEW, frame);
        if (etherType == EthernetHeader.ETHER_TYPE_IPV4) {
            assertTrue(length >= EthernetHeader.LENGTH + Ipv4Header.MIN_LENGTH
                && EthernetHeader.LENGTH + Ipv4Header.totalLength(RECEIVED_VIEW, ip) <= length, "a cut IPv4 packet forwarded as whole");
            assertTrue(Ipv4Header.checksumValid(RECEIVED_VIEW, ip), "an IPv4 header with a bad checksum forwarded");
        } else if (etherType == EthernetHeader.ETHER_TYPE_IPV6) {
            assertTrue(length >= EthernetHeader.LENGTH + Ipv6Header.LENGTH
                && EthernetHeader.LENGTH + Ipv6Header.LENGTH + Ipv6Header.payloadLength(RECEIVED_VIEW, ip) <= length,
                "a cut IPv6 packet forwarded as whole");
        }
    }
}
