package io.trimswitch.realtime;

import io.trimswitch.config.SwitchSettings;
import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.VxlanHeader;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Hostile datagrams at a live switch's port: random bytes, random bytes behind a valid VXLAN header, and
 * valid frames with bytes flipped. Whatever arrives is forwarded to a host or counted as dropped with a
 * reason, and no thread of the switch fails.
 */
class DatagramFuzzTest {
    private static final int VNI = 42;
    private static final int PORTS = 3;
    private static final DatagramChannel[] HOSTS = new DatagramChannel[PORTS];
    private static final ByteBuffer RECEIVED = ByteBuffer.allocateDirect(65_536);
    private static LiveSwitch live;
    private static long delivered;

    @BeforeContainer
    static void start() throws IOException {
        final SwitchSettings settings = new SwitchSettings();
        settings.fabric.pipelines = 1;
        settings.fabric.portsPerPipeline = 4;
        settings.realtime.idle = "yield";
        // The model's table, 10.0.p.0/24 to port p: every frame that parses has one place to go, or none.
        settings.forwarding.mode = "subnet";
        settings.metrics.address = null;
        for (int port = 0; port < PORTS; port++) {
            HOSTS[port] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            HOSTS[port].configureBlocking(false);
            HOSTS[port].setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            final SwitchSettings.Port entry = new SwitchSettings.Port();
            entry.bind = "127.0.0.1:0";
            entry.remote = "127.0.0.1:" + ((InetSocketAddress) HOSTS[port].getLocalAddress()).getPort();
            entry.vni = VNI;
            settings.ports.add(entry);
        }
        live = new LiveSwitch(settings);
        live.start();
    }

    @AfterContainer
    static void stop() throws IOException {
        live.stop();
        for (final DatagramChannel host : HOSTS) {
            host.close();
        }
    }

    /** Datagrams the hosts have received, plus every drop the switch counted, on every port. */
    private static long accountedFor() throws IOException {
        for (final DatagramChannel host : HOSTS) {
            RECEIVED.clear();
            while (host.receive(RECEIVED) != null) {
                delivered++;
                RECEIVED.clear();
            }
        }
        long dropped = 0;
        for (final LiveSwitch.PortStats port : live.stats()) {
            dropped += port.drops().values().stream().mapToLong(Long::longValue).sum();
        }
        return delivered + dropped;
    }

    @Property(tries = 150)
    void everyDatagramIsForwardedOrCountedByReason(@ForAll("datagrams") final List<byte[]> datagrams) throws Exception {
        final long before = accountedFor();
        for (final byte[] datagram : datagrams) {
            HOSTS[0].send(ByteBuffer.wrap(datagram), live.localAddress(0));
        }
        long accounted = accountedFor() - before;
        final long deadline = System.nanoTime() + 3_000_000_000L;
        while (accounted < datagrams.size() && System.nanoTime() < deadline) {
            Thread.sleep(2);
            accounted = accountedFor() - before;
        }
        assertNull(live.fault(), "no thread of the switch failed");
        assertEquals(datagrams.size(), accounted, "each datagram forwarded once or dropped with a reason");
    }

    @Provide
    Arbitrary<List<byte[]>> datagrams() {
        return Arbitraries.oneOf(randomBytes(), behindVxlan(), damagedFrames()).list().ofMinSize(1).ofMaxSize(16);
    }

    private static Arbitrary<byte[]> randomBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(2100);
    }

    private static Arbitrary<byte[]> behindVxlan() {
        return Combinators.combine(Arbitraries.of(VxlanHeader.FLAG_VNI_VALID, 0, 0xFF), Arbitraries.of(VNI, 7),
            Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(2100)).as((flags, vni, frame) -> vxlan(flags, vni, frame));
    }

    /** A frame to 10.0.d.1 (d = 0..3; port 3 has no host), whole or cut, with a few bytes overwritten. */
    private static Arbitrary<byte[]> damagedFrames() {
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(60, 1600),
            Arbitraries.integers().between(0, 1700), Arbitraries.integers().between(0, 1599).list().ofMaxSize(4),
            Arbitraries.bytes().list().ofSize(4)).as((destination, length, cut, positions, values) -> {
                final byte[] frame = new byte[length];
                final UnsafeBuffer bytes = new UnsafeBuffer(frame);
                WorkloadFrames.writeData(bytes, 0, length, 0, destination, 0, 0, 0, 9999);
                for (int i = 0; i < positions.size(); i++) {
                    if (positions.get(i) < length) {
                        frame[positions.get(i)] = values.get(i);
                    }
                }
                if (positions.isEmpty()) {
                    Ipv4Header.updateChecksum(bytes, EthernetHeader.LENGTH);
                }
                return vxlan(VxlanHeader.FLAG_VNI_VALID, VNI, java.util.Arrays.copyOf(frame, Math.min(length, Math.max(cut, 1))));
            });
    }

    private static byte[] vxlan(final int flags, final int vni, final byte[] frame) {
        final byte[] datagram = new byte[VxlanHeader.LENGTH + frame.length];
        final UnsafeBuffer header = new UnsafeBuffer(datagram);
        VxlanHeader.write(header, 0, vni);
        header.putByte(0, (byte) flags);
        System.arraycopy(frame, 0, datagram, VxlanHeader.LENGTH, frame.length);
        return datagram;
    }
}
