package io.trimswitch.realtime.shard;

import io.trimswitch.dataplane.packet.PacketPool;
import io.trimswitch.dataplane.packet.PoolPartition;
import io.trimswitch.trafficmanager.HandleRing;

/**
 * One shard's share of the pool: the partition it allocates from on its thread, its partition of the pool's second
 * class (the frames its AF_XDP queues lend the kernel to receive into), and the ring their buffers come back on from
 * whichever thread is done with them ({@link PoolPartitions#release}). Taken back in each turn, and at once when a
 * partition runs dry.
 */
final class ShardBuffers {
    /** Null for a shard that takes no buffers of its own (it only receives packets another shard generated). */
    private final PoolPartition buffers;
    /** The shard's buffers of the pool's second class; null when the pool has none. */
    private final PoolPartition frames;
    /** This shard's buffers freed on any thread, on their way back; null with no partition. */
    private final HandleRing returned;
    private final HandleRing.HandleConsumer reclaim;

    ShardBuffers(final PoolPartition buffers, final PoolPartition frames, final HandleRing returned) {
        this.buffers = buffers;
        this.frames = frames;
        this.returned = returned;
        this.reclaim = buffers == null ? handle -> {
        } : frames == null ? buffers::free : handle -> (frames.owns(handle) ? frames : buffers).free(handle);
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

    /** A free buffer of the shard's second class, or {@link PacketPool#NO_PACKET} (none left, or none at all). */
    int allocateFrame() {
        if (frames == null) {
            return PacketPool.NO_PACKET;
        }
        int handle = frames.allocate();
        if (handle == PacketPool.NO_PACKET) {
            returned.drain(reclaim, Integer.MAX_VALUE);
            handle = frames.allocate();
        }
        return handle;
    }

    /** The shard's partition of the second class, or null. */
    PoolPartition frames() {
        return frames;
    }

    /** From any thread: buffer {@code handle} of this partition is free again. */
    void giveBack(final int handle) {
        returned.offer(handle);
    }

    /** On the shard's thread: takes back what came back; returns how many. */
    int reclaim() {
        return returned == null ? 0 : returned.drain(reclaim, Integer.MAX_VALUE);
    }

    /** Buffers of this shard, of both classes, still out (those on their way back are taken back first). */
    int inUse() {
        if (buffers == null) {
            return 0;
        }
        reclaim();
        return buffers.inUse() + (frames == null ? 0 : frames.inUse());
    }
}
