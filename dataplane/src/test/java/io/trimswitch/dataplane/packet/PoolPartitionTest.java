package io.trimswitch.dataplane.packet;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PoolPartitionTest {
    private final PacketPool pool = new PacketPool(2 * PacketPool.SLOTS_PER_SLAB);

    @Test
    void twoPartitionsHandOutDisjointHandlesOfOnePoolUntilTheirOwnRunOut() {
        final PoolPartition first = new PoolPartition(pool, 0, PacketPool.SLOTS_PER_SLAB);
        final PoolPartition second = new PoolPartition(pool, PacketPool.SLOTS_PER_SLAB, PacketPool.SLOTS_PER_SLAB);
        final Set<Integer> handles = new HashSet<>();
        for (int i = 0; i < PacketPool.SLOTS_PER_SLAB; i++) {
            final int a = first.allocate();
            final int b = second.allocate();
            assertTrue(first.owns(a) && !second.owns(a) && second.owns(b) && !first.owns(b));
            assertTrue(handles.add(a) && handles.add(b));
        }
        assertEquals(PacketPool.NO_PACKET, first.allocate(), "a partition does not borrow from another");
        assertEquals(PacketPool.SLOTS_PER_SLAB, first.inUse());
        final int freed = handles.iterator().next();
        (first.owns(freed) ? first : second).free(freed);
        assertEquals(freed, (first.owns(freed) ? first : second).allocate(), "a freed buffer is taken again");
    }

    @Test
    void aReusedBufferStartsWithFreshMetadata() {
        final PoolPartition partition = new PoolPartition(pool, 0, PacketPool.SLOTS_PER_SLAB);
        final int handle = partition.allocate();
        pool.trimKind(handle, TrimKind.DOD);
        pool.flow(handle, 7);
        pool.egressPort(handle, 3);
        partition.free(handle);
        assertEquals(handle, partition.allocate());
        assertEquals(TrimKind.NONE, pool.trimKind(handle));
        assertEquals(-1, pool.flow(handle));
        assertEquals(-1, pool.egressPort(handle));
        assertFalse(pool.returnedToSender(handle));
    }

    @Test
    void aPartitionStartsOnASlabsEdgeAndFitsInItsPool() {
        assertThrows(IllegalArgumentException.class, () -> new PoolPartition(pool, 1, 10));
        assertThrows(IllegalArgumentException.class, () -> new PoolPartition(pool, PacketPool.SLOTS_PER_SLAB, 2 * PacketPool.SLOTS_PER_SLAB));
    }
}
