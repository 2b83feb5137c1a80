package io.trimswitch.dataplane.packet;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PacketPoolTest {
    @Test
    void handsOutEveryBufferOnceThenReportsExhaustion() {
        final PacketPool pool = new PacketPool(3000);
        final Set<Integer> handles = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            handles.add(pool.allocate());
        }
        assertEquals(3000, handles.size());
        assertEquals(PacketPool.NO_PACKET, pool.allocate());
        assertEquals(3000, pool.inUse());
    }

    @Test
    void buffersOfDifferentHandlesDoNotOverlap() {
        final PacketPool pool = new PacketPool(2048);
        final int a = pool.allocate();
        final int b = pool.allocate();
        pool.buffer(a).putLong(pool.offset(a) + PacketPool.SLOT_BYTES - 8, -1L);
        assertEquals(0L, pool.buffer(b).getLong(pool.offset(b)));
        assertNotEquals(pool.offset(a), pool.offset(b));
    }

    @Test
    void freeingTwiceIsABookkeepingBugAndFailsLoudly() {
        final PacketPool pool = new PacketPool(4);
        final int handle = pool.allocate();
        pool.free(handle);
        assertThrows(IllegalStateException.class, () -> pool.free(handle));
    }

    @Test
    void resetReturnsEverythingAndReplaysTheSameHandles() {
        final PacketPool pool = new PacketPool(16);
        final int first = pool.allocate();
        pool.allocate();
        pool.reset();
        assertEquals(0, pool.inUse());
        assertEquals(first, pool.allocate());
    }
}
