package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.codec.OffloadHeader;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UmemShareTest {
    private static final int FRAMES = 2 * PacketPool.SLOTS_PER_SLAB;
    private final PacketPool pool = PacketPool.withHeadroom(1000, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH, FRAMES);

    @Test
    void theSecondClassFollowsTheFirstsSlabsAndTheFirstNeverHandsItOut() {
        assertEquals(PacketPool.SLOTS_PER_SLAB, pool.umemFirst());
        assertEquals(PacketPool.SLOTS_PER_SLAB + FRAMES, pool.capacity());
        for (int i = 0; i < 1000; i++) {
            assertTrue(pool.allocate() < 1000);
        }
        assertEquals(PacketPool.NO_PACKET, pool.allocate(), "the first class holds only its own buffers");
    }

    @Test
    void eachFrameSitsInAChunkOfItsOwnAtTheKernelsHeadroomWithItsOffloadHeaderAhead() {
        final PoolPartition frames = new PoolPartition(pool, pool.umemFirst(), FRAMES);
        final UmemShare share = new UmemShare(pool, pool.umemFirst(), FRAMES, frames::allocate, frames::free);
        final Set<Long> chunks = new HashSet<>();
        for (int i = 0; i < FRAMES; i++) {
            final int handle = frames.allocate();
            final long address = pool.buffer(handle).addressOffset() + pool.offset(handle);
            assertEquals(UmemShare.FRAME_START, address % UmemShare.CHUNK, "the frame starts where the kernel writes it");
            assertTrue(share.holdsAddress(address - OffloadHeader.LENGTH));
            assertEquals(address, share.address() + share.chunk(handle) + UmemShare.FRAME_START);
            assertEquals(handle, share.handleAt(share.chunk(handle) + UmemShare.FRAME_START));
            assertTrue(chunks.add(share.chunk(handle)));
        }
        assertEquals(PacketPool.NO_PACKET, frames.allocate());
        assertEquals((long) FRAMES * UmemShare.CHUNK, share.bytes());
        assertFalse(share.holdsAddress(share.address() + share.bytes()));
    }

    @Test
    void aFrameLongerThanItsClasssSlotCannotBeWrittenIntoIt() {
        final PoolPartition frames = new PoolPartition(pool, pool.umemFirst(), FRAMES);
        final int frame = frames.allocate();
        final int other = pool.allocate();
        assertEquals(UmemShare.LONGEST_FRAME, pool.slotBytes(frame));
        assertEquals(PacketPool.MAX_SLOT_BYTES, pool.slotBytes(other));
        pool.length(frame, UmemShare.LONGEST_FRAME);
        assertThrows(IllegalArgumentException.class, () -> pool.length(frame, UmemShare.LONGEST_FRAME + 1));
        pool.length(other, UmemShare.LONGEST_FRAME + 1);
    }

    @Test
    void aShareOutsideTheSecondClassIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new UmemShare(pool, 0, PacketPool.SLOTS_PER_SLAB, () -> 0, handle -> { }));
        assertThrows(IllegalArgumentException.class, () -> new UmemShare(pool, pool.umemFirst(), FRAMES + 1, () -> 0, handle -> { }));
        assertThrows(IllegalArgumentException.class, () -> PacketPool.withHeadroom(10, 2048, 0, 100));
    }
}
