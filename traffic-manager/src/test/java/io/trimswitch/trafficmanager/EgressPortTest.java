package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EgressPortTest {
    private final PacketPool pool = new PacketPool(256);

    private int packet(final int bytes) {
        final int handle = pool.allocate();
        pool.length(handle, bytes);
        return handle;
    }

    @Test
    void aPortSerialisesA1500BytePacketIn120NanosecondsAndAHeaderIn5120Picoseconds() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 16, 16, 10);
        port.dataQueue().offer(packet(1500));
        assertEquals(1_120_000, port.startTransmission(1_000_000));
        port.finishTransmission();
        port.headerQueue().offer(packet(64));
        assertEquals(2_005_120, port.startTransmission(2_000_000));
    }

    @Test
    void headersGoFirstButOneDataPacketFollowsEveryTenHeaders() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 16, 64, 10);
        for (int i = 0; i < 30; i++) {
            port.headerQueue().offer(packet(64));
        }
        for (int i = 0; i < 5; i++) {
            port.dataQueue().offer(packet(1500));
        }
        final StringBuilder order = new StringBuilder();
        long now = 0;
        while (port.hasWaiting()) {
            now = port.startTransmission(now);
            order.append(pool.length(port.finishTransmission()) == 64 ? 'h' : 'D');
        }
        assertEquals("hhhhhhhhhhD" + "hhhhhhhhhhD" + "hhhhhhhhhhD" + "DD", order.toString());
    }

    @Test
    void strictPriorityStarvesDataWhileHeadersWait() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 16, 64, 0);
        for (int i = 0; i < 20; i++) {
            port.headerQueue().offer(packet(64));
        }
        port.dataQueue().offer(packet(1500));
        for (int i = 0; i < 20; i++) {
            port.startTransmission(0);
            assertEquals(64, pool.length(port.finishTransmission()));
        }
        port.startTransmission(0);
        assertEquals(1500, pool.length(port.finishTransmission()));
    }

    @Test
    void transmittedPacketsAreCountedInPacketsAndBytes() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 16, 16, 10);
        port.dataQueue().offer(packet(1500));
        port.headerQueue().offer(packet(64));
        for (int i = 0; i < 2; i++) {
            port.startTransmission(0);
            port.finishTransmission();
        }
        assertEquals(2, port.counters().txPackets());
        assertEquals(1564, port.counters().txBytes());
        assertTrue(port.isIdle());
        assertEquals(-1, port.startTransmission(0));
    }

    @Test
    void drainingAPortWithTrafficClassesGivesBackThePacketsOfEveryDataQueue() {
        final HandleQueue[] queues = {new PacketFifo(16), new PacketFifo(16), new PacketFifo(16)};
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, queues,
            new DataQueueScheduler(new boolean[] {false, false, true}, new int[] {1, 1, 1}), new PacketFifo(16), 10);
        port.dataQueue(0).offer(packet(1500));
        port.dataQueue(1).offer(packet(1000));
        port.dataQueue(2).offer(packet(900));
        port.dataQueue(2).offer(packet(800));
        port.headerQueue().offer(packet(64));
        final java.util.List<Integer> drained = new java.util.ArrayList<>();
        port.drainTo(handle -> drained.add(pool.length(handle)));
        drained.sort(null);
        assertEquals(java.util.List.of(64, 800, 900, 1000, 1500), drained);
        assertTrue(port.isIdle() && !port.hasWaiting());
    }

    @Test
    void aNewRateAppliesToTheNextTransmission() {
        final EgressPort port = new EgressPort(0, LinkRate.gbps(100), pool, 16, 16, 10);
        port.dataQueue().offer(packet(1500));
        port.dataQueue().offer(packet(1500));
        assertEquals(120_000, port.startTransmission(0));
        port.rate(LinkRate.gbps(10));
        port.finishTransmission();
        assertEquals(120_000 + 1_200_000, port.startTransmission(120_000));
        assertEquals(10_000_000_000L, port.rate().bitsPerSecond());
    }
}
