package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.trafficmanager.HandleRing;

import java.util.Arrays;

/**
 * The pool shared out between shards, whole slabs each in shard order from the pool's start, so that a buffer's slab
 * says whose it is: a buffer freed on any thread goes back to the shard it came from, which alone allocates from it. The
 * pool's second class (buffers a kernel receives into itself, {@link PacketPool#umemFrames}) is shared out the same way,
 * an equal piece to each shard that has buffers.
 */
final class PoolPartitions {
    private final ShardBuffers[] shares;
    /** Per slab of the pool: the shard whose partition it is. */
    private final int[] ownerOfSlab;

    /** @param sizes per shard, how many of the pool's buffers it allocates from (0: none), each a whole number of slabs */
    PoolPartitions(final PacketPool pool, final int[] sizes) {
        this.shares = new ShardBuffers[sizes.length];
        this.ownerOfSlab = new int[(pool.capacity() + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB];
        final int framesEach = framesPerShard(pool, sizes);
        int first = 0;
        int nextFrame = pool.umemFirst();
        for (int shard = 0; shard < sizes.length; shard++) {
            if (sizes[shard] > 0) {
                final PoolPartition frames = framesEach == 0 ? null : new PoolPartition(pool, nextFrame, framesEach);
                shares[shard] = new ShardBuffers(new PoolPartition(pool, first, sizes[shard]), frames,
                    new HandleRing(sizes[shard] + framesEach, sizes.length > 1));
                own(shard, first, sizes[shard]);
                own(shard, nextFrame, framesEach);
                first += sizes[shard];
                nextFrame += framesEach;
            } else {
                shares[shard] = new ShardBuffers(null, null, null);
            }
        }
    }

    /** The second class's buffers each shard with buffers gets: whole slabs, the same for each. */
    static int framesPerShard(final PacketPool pool, final int[] sizes) {
        final long takers = Arrays.stream(sizes).filter(size -> size > 0).count();
        return takers == 0 ? 0 : (int) (pool.umemFrames() / PacketPool.SLOTS_PER_SLAB / takers) * PacketPool.SLOTS_PER_SLAB;
    }

    private void own(final int shard, final int first, final int count) {
        Arrays.fill(ownerOfSlab, first / PacketPool.SLOTS_PER_SLAB, (first + count + PacketPool.SLOTS_PER_SLAB - 1) / PacketPool.SLOTS_PER_SLAB, shard);
    }

    /** Shard {@code shard}'s share. */
    ShardBuffers of(final int shard) {
        return shares[shard];
    }

    /** The shard whose partition buffer {@code handle} came from. */
    int ownerOf(final int handle) {
        return ownerOfSlab[handle / PacketPool.SLOTS_PER_SLAB];
    }

    /** Gives a buffer back to the shard whose partition it came from, whichever thread is done with it. */
    void release(final int handle) {
        shares[ownerOf(handle)].giveBack(handle);
    }
}
