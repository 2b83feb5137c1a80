package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.codec.OffloadHeader;
import io.trimswitch.dataplane.packet.PacketPool;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PoolPartitionsTest {
    private static final int SLAB = PacketPool.SLOTS_PER_SLAB;
    private final PacketPool pool = PacketPool.withHeadroom(2 * SLAB, PacketPool.MAX_SLOT_BYTES, OffloadHeader.LENGTH, 4 * SLAB);

    @Test
    void eachShardWithBuffersGetsAnEqualPieceOfTheKernelsFramesAfterTheOtherClass() {
        final PoolPartitions partitions = new PoolPartitions(pool, new int[] {SLAB, 0, SLAB});
        assertEquals(2 * SLAB, PoolPartitions.framesPerShard(pool, new int[] {SLAB, 0, SLAB}));
        final int first = partitions.of(0).allocateFrame();
        final int third = partitions.of(2).allocateFrame();
        assertEquals(pool.umemFirst(), first);
        assertEquals(pool.umemFirst() + 2 * SLAB, third);
        assertEquals(PacketPool.NO_PACKET, partitions.of(1).allocateFrame(), "a shard without buffers has no frames either");
        assertEquals(0, partitions.ownerOf(first));
        assertEquals(2, partitions.ownerOf(third));
        assertTrue(partitions.of(0).allocate() < SLAB, "the other class is as before");
    }

    @Test
    void aFrameFreedOnAnyThreadGoesBackToItsShardsPieceAndIsCountedInUseUntilThen() {
        final PoolPartitions partitions = new PoolPartitions(pool, new int[] {SLAB, SLAB});
        final ShardBuffers shard = partitions.of(1);
        final int buffer = shard.allocate();
        final int[] frames = new int[2 * SLAB];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = shard.allocateFrame();
            assertTrue(shard.frames().owns(frames[i]));
        }
        assertEquals(PacketPool.NO_PACKET, shard.allocateFrame(), "the piece is all out");
        assertEquals(1 + 2 * SLAB, shard.inUse(), "buffers of both classes count");
        partitions.release(frames[5]);
        partitions.release(buffer);
        assertEquals(2 * SLAB - 1, shard.inUse());
        assertEquals(frames[5], shard.allocateFrame(), "the frame came back to its own piece");
        assertFalse(shard.frames().owns(buffer));
    }
}
