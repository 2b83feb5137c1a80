package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.trafficmanager.HandleRing;

/**
 * One shard's share of the pool: the partition it allocates from on its thread, and the ring its buffers come back on
 * from whichever thread is done with them ({@link PoolPartitions#release}). Taken back in each turn, and at once when the
 * partition runs dry.
 */
final class ShardBuffers {
    /** Null for a shard that takes no buffers of its own (it only receives packets another shard generated). */
    private final PoolPartition buffers;
    /** This partition's buffers freed on any thread, on their way back; null with no partition. */
    private final HandleRing returned;
    private final HandleRing.HandleConsumer reclaim;

    ShardBuffers(final PoolPartition buffers, final HandleRing returned) {
        this.buffers = buffers;
        this.returned = returned;
        this.reclaim = buffers == null ? handle -> {
        } : buffers::free;
    }

    /** A free buffer of this partition, or {@link PacketPool#NO_PACKET}. */
    int allocate() {
        int handle = buffers.allocate();
        if (handle == PacketPool.NO_PACKET) {
            returned.drain(reclaim, Integer.MAX_VALUE);
            handle = buffers.allocate();
        }
        return handle;
    }

    /** From any thread: buffer {@code handle} of this partition is free again. */
    void giveBack(final int handle) {
        returned.offer(handle);
    }

    /** On the shard's thread: takes back what came back; returns how many. */
    int reclaim() {
        return returned == null ? 0 : returned.drain(reclaim, Integer.MAX_VALUE);
    }

    /** Buffers of this partition still out (those on their way back are taken back first). */
    int inUse() {
        if (buffers == null) {
            return 0;
        }
        reclaim();
        return buffers.inUse();
    }
}
