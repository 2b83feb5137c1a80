package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.trafficmanager.HandleRing;

import java.util.Arrays;

/**
 * The pool shared out between shards, whole slabs each in shard order from the pool's start, so that a buffer's slab
 * says whose it is: a buffer freed on any thread goes back to the shard it came from, which alone allocates from it.
 */
final class PoolPartitions {
    private final ShardBuffers[] shares;
    /** Per slab of the pool: the shard whose partition it is. */
    private final int[] ownerOfSlab;

    /** @param sizes per shard, how many of the pool's buffers it allocates from (0: none), each a whole number of slabs */
    PoolPartitions(final PacketPool pool, final int[] sizes) {
        this.shares = new ShardBuffers[sizes.length];
        this.ownerOfSlab = new int[(pool.capacity() + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB];
        int first = 0;
        for (int shard = 0; shard < sizes.length; shard++) {
            if (sizes[shard] > 0) {
                shares[shard] = new ShardBuffers(new PoolPartition(pool, first, sizes[shard]), new HandleRing(sizes[shard], sizes.length > 1));
                Arrays.fill(ownerOfSlab, first / PacketPool.SLOTS_PER_SLAB,
                    (first + sizes[shard] + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB, shard);
                first += sizes[shard];
            } else {
                shares[shard] = new ShardBuffers(null, null);
            }
        }
    }

    /** Shard {@code shard}'s share. */
    ShardBuffers of(final int shard) {
        return shares[shard];
    }

    /** Gives a buffer back to the shard whose partition it came from, whichever thread is done with it. */
    void release(final int handle) {
        shares[ownerOfSlab[handle / PacketPool.SLOTS_PER_SLAB]].giveBack(handle);
    }
}
