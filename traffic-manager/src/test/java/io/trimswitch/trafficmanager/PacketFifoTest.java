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
    void aDeepQueueGrowsItsRingAndKeepsItsOrderAcrossWrapAround() {
        final PacketFifo fifo = new PacketFifo(5000);
        int next = 0;
        int expected = 0;
        // Wrap the first ring, then grow it past its size several times with packets still queued from before.
        for (int i = 0; i < 40; i++) {
            fifo.offer(next++);
            fifo.poll();
            expected++;
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 1000; i++) {
                assertTrue(fifo.offer(next++));
            }
            for (int i = 0; i < 300; i++) {
                assertEquals(expected++, fifo.poll());
            }
        }
        assertEquals(2100, fifo.size());
        assertEquals(next - 1, fifo.removeTail());
        next--;
        while (!fifo.isEmpty()) {
            assertEquals(expected++, fifo.poll());
        }
        assertEquals(next, expected);
        for (int i = 0; i < 5000; i++) {
            assertTrue(fifo.offer(i));
        }
        assertFalse(fifo.offer(5000));
    }

    @Test
    void aLimitMayNotExceedTheCapacityItWasMadeWith() {
        final PacketFifo fifo = new PacketFifo(100);
        fifo.limit(100);
        assertThrows(IllegalArgumentException.class, () -> fifo.limit(101));
        fifo.limit(3);
        for (int i = 0; i < 3; i++) {
            assertTrue(fifo.offer(i));
        }
        assertFalse(fifo.offer(3));
    }

    @Test
    void aQueueWithoutRoomIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PacketFifo(0));
    }
}
