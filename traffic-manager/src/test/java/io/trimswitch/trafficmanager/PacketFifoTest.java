package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PacketFifoTest {
    @Test
    void holdsExactlyItsCapacityEvenWhenThatIsNotAPowerOfTwo() {
        final PacketFifo fifo = new PacketFifo(5);
        for (int i = 0; i < 5; i++) {
            assertTrue(fifo.offer(i));
        }
        assertFalse(fifo.offer(5));
        assertEquals(1, fifo.rejected());
        assertEquals(5, fifo.maxDepth());
    }

    @Test
    void isFirstInFirstOutAcrossWrapAround() {
        final PacketFifo fifo = new PacketFifo(3);
        int next = 0;
        int expected = 0;
        for (int round = 0; round < 100; round++) {
            fifo.offer(next++);
            fifo.offer(next++);
            assertEquals(expected++, fifo.poll());
            assertEquals(expected++, fifo.poll());
        }
        assertEquals(PacketPool.NO_PACKET, fifo.poll());
    }

    @Test
    void removeTailTakesTheNewestPacket() {
        final PacketFifo fifo = new PacketFifo(4);
        fifo.offer(7);
        fifo.offer(8);
        assertEquals(8, fifo.removeTail());
        assertEquals(7, fifo.poll());
        assertEquals(PacketPool.NO_PACKET, fifo.removeTail());
    }

    @Test
    void aQueueWithoutRoomIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PacketFifo(0));
    }
}
