package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.time.LinkRate;
import io.trimswitch.trafficmanager.EgressPort;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PortHandoffTest {
    @Test
    void whatAStandInIsOfferedReachesTheOwnerInOrderSayingWhichQueueItWasFor() {
        final PacketPool pool = new PacketPool(16);
        final EgressPort real = new EgressPort(3, LinkRate.gbps(100), pool, 16, 1024, 10);
        final PortHandoff handoff = new PortHandoff(pool.capacity(), true);
        final EgressPort standIn = handoff.standIn(real, pool, 10);
        assertEquals(3, standIn.id());
        assertTrue(standIn.dataQueue().offer(7));
        assertTrue(standIn.headerQueue().offer(8));
        assertTrue(standIn.dataQueue().isEmpty(), "nothing waits at the stand-in: it all went to the owner");
        assertTrue(real.dataQueue().isEmpty() && real.headerQueue().isEmpty(), "only the owner queues into the real port");
        final int first = handoff.poll();
        assertEquals(7, PortHandoff.handle(first));
        assertFalse(PortHandoff.isHeader(first));
        final int second = handoff.poll();
        assertEquals(8, PortHandoff.handle(second));
        assertTrue(PortHandoff.isHeader(second));
        assertEquals(PacketPool.NO_PACKET, handoff.poll());
        assertTrue(handoff.isEmpty());
    }
}
