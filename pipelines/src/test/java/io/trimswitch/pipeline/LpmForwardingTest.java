package io.trimswitch.pipeline;

import io.trimswitch.dataplane.codec.EthernetHeader;
import io.trimswitch.dataplane.codec.Ipv4Header;
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
    private final PacketPool pool = new PacketPool(4);
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
}
