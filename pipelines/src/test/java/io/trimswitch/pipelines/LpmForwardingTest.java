package io.trimswitch.pipelines;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
import io.trimswitch.dataplane.codec.Ipv6Header;
import io.trimswitch.dataplane.packet.PacketClass;
import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.TrimSettings;
import io.trimswitch.dataplane.packet.WorkloadFrames;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LpmForwardingTest {
    private static final long NEXT_HOP = 0x0266_0000_0001L;
    private final PacketPool pool = new PacketPool(8);
    private final TrimSettings trim = new TrimSettings(64, 11, 1L << 10, 666);
    private final LpmForwarding routes = new LpmForwarding(List.of(
        new LpmForwarding.Route(address(10, 0, 0, 0), 8, 1, NEXT_HOP),
        new LpmForwarding.Route(address(10, 0, 5, 0), 24, 2, NEXT_HOP + 1),
        new LpmForwarding.Route(address(10, 0, 5, 7), 32, 3, NEXT_HOP + 2)), new long[] {0xA0, 0xA1, 0xA2, 0xA3});

    private static int address(final int a, final int b, final int c, final int d) {
        return (a << 24) | (b << 16) | (c << 8) | d;
    }

    @Test
    void theLongestMatchingPrefixWins() {
        assertEquals(3, routes.lookup(address(10, 0, 5, 7)).port());
        assertEquals(2, routes.lookup(address(10, 0, 5, 8)).port());
        assertEquals(1, routes.lookup(address(10, 9, 9, 9)).port());
        assertNull(routes.lookup(address(192, 168, 0, 1)));
    }

    @Test
    void aRoutedFrameGetsTheNextHopsMacThePortsOwnAndOneLessTtlWithAValidChecksum() {
        // WorkloadFrames addresses port p's host as 10.0.p.1: port 5 is covered by 10.0.5.0/24.
        final int handle = frame(5);
        final int ttl = Ipv4Header.ttl(pool.buffer(handle), pool.offset(handle) + EthernetHeader.LENGTH);
        assertEquals(2, routes.egressPort(pool, handle, classify(handle)));
        final int ip = pool.offset(handle) + EthernetHeader.LENGTH;
        assertEquals(NEXT_HOP + 1, EthernetHeader.destination(pool.buffer(handle), pool.offset(handle)));
        assertEquals(0xA2, EthernetHeader.source(pool.buffer(handle), pool.offset(handle)));
        assertEquals(ttl - 1, Ipv4Header.ttl(pool.buffer(handle), ip));
        assertTrue(Ipv4Header.checksumValid(pool.buffer(handle), ip), "patched checksum");
    }

    @Test
    void aPacketWhoseTtlWouldReachZeroIsNotForwardedAndNoRouteIsNoRoute() {
        final int handle = frame(5);
        final int ip = pool.offset(handle) + EthernetHeader.LENGTH;
        Ipv4Header.ttl(pool.buffer(handle), ip, 1);
        Ipv4Header.updateChecksum(pool.buffer(handle), ip);
        assertEquals(ForwardingStage.TTL_EXPIRED, routes.egressPort(pool, handle, classify(handle)));
        final LpmForwarding none = new LpmForwarding(List.of(), new long[4]);
        assertEquals(ForwardingStage.NO_ROUTE, none.egressPort(pool, frame(6), classify(frame(6))));
        assertThrows(IllegalArgumentException.class,
            () -> new LpmForwarding(List.of(new LpmForwarding.Route(0, 0, 9, NEXT_HOP)), new long[4]), "a route out of a port the switch lacks");
    }

    private int frame(final int destinationPort) {
        final int handle = pool.allocate();
        WorkloadFrames.writeData(pool.buffer(handle), pool.offset(handle), 1500, 0, destinationPort, 0, 0, 10, 666);
        pool.length(handle, 1500);
        return handle;
    }

    private int classify(final int handle) {
        return PacketClass.classify(pool.buffer(handle), pool.offset(handle), pool.length(handle), trim);
    }

    private int ipv6Frame(final long destinationHigh, final long destinationLow, final int hopLimit) {
        final int handle = pool.allocate();
        final org.agrona.concurrent.UnsafeBuffer buffer = pool.buffer(handle);
        final int frame = pool.offset(handle);
        EthernetHeader.etherType(buffer, frame, EthernetHeader.ETHER_TYPE_IPV6);
        final byte[] destination = java.nio.ByteBuffer.allocate(16).putLong(destinationHigh).putLong(destinationLow).array();
        Ipv6Header.write(buffer, frame + EthernetHeader.LENGTH, 0, 8, 17, hopLimit, new byte[16], destination);
        pool.length(handle, EthernetHeader.LENGTH + Ipv6Header.LENGTH + 8);
        return handle;
    }

    @Test
    void ipv6RoutesMatchTheLongestPrefixDecrementTheHopLimitAndDropWhatWouldExpire() {
        final long fd00 = 0xfd00_0000_0000_0000L;
        final LpmForwarding dualStack = new LpmForwarding(List.of(), List.of(
            new LpmForwarding.Route6(fd00, 0, 16, 1, NEXT_HOP),
            new LpmForwarding.Route6(fd00 | 0x0005_0000_0000L, 0, 64, 2, NEXT_HOP + 1),
            new LpmForwarding.Route6(fd00 | 0x0005_0000_0000L, 7, 128, 3, NEXT_HOP + 2)), new long[] {0xA0, 0xA1, 0xA2, 0xA3});
        assertEquals(3, dualStack.lookup6(fd00 | 0x0005_0000_0000L, 7).port());
        assertEquals(2, dualStack.lookup6(fd00 | 0x0005_0000_0000L, 8).port());
        assertEquals(1, dualStack.lookup6(fd00 | 0x0009_0000_0000L, 1).port());
        assertNull(dualStack.lookup6(0x2001_0db8_0000_0000L, 1));

        final int handle = ipv6Frame(fd00 | 0x0005_0000_0000L, 8, 64);
        final int packetClass = PacketClass.classify(pool.buffer(handle), pool.offset(handle), pool.length(handle), trim);
        assertEquals(2, dualStack.egressPort(pool, handle, packetClass));
        assertEquals(63, Ipv6Header.hopLimit(pool.buffer(handle), pool.offset(handle) + EthernetHeader.LENGTH));
        assertEquals(NEXT_HOP + 1, EthernetHeader.destination(pool.buffer(handle), pool.offset(handle)));
        assertEquals(0xA2, EthernetHeader.source(pool.buffer(handle), pool.offset(handle)));

        final int expiring = ipv6Frame(fd00 | 0x0005_0000_0000L, 8, 1);
        assertEquals(ForwardingStage.TTL_EXPIRED, dualStack.egressPort(pool, expiring,
            PacketClass.classify(pool.buffer(expiring), pool.offset(expiring), pool.length(expiring), trim)));
        assertEquals(ForwardingStage.NO_ROUTE, routes.egressPort(pool, ipv6Frame(fd00, 1, 64), PacketClass.IPV6 | PacketClass.UDP));
    }
}
