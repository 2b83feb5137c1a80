package io.trimswitch.dataplane.packet;

/**
 * A range of a pool's handles owned by one thread, so that several threads can each take buffers from
 * the same pool without sharing a free list: the live switch's pipeline threads each receive into their
 * own partition. Partitions start on a slab's edge, so each slab is created by the one thread that uses it
 * first. A buffer freed on another thread must come back to its owner (see {@link #owns}) before
 * {@link #free}.
 */
public final class PoolPartition {
    private final PacketPool pool;
    private final int first;
    private final int end;
    /** Grows with the buffers handed out so far, a slab at a time: only the owner pushes and pops. */
    private int[] freeStack;
    private int freeCount;
    private int neverUsed;
    /** Allocations still refused without a new try after the kernel could not map a slab ({@link PacketPool#refused}). */
    private int refusalsBeforeRetry;

    /** Handles {@code first} to {@code first + count - 1} of {@code pool}; {@code first} a multiple of a slab. */
    public PoolPartition(final PacketPool pool, final int first, final int count) {
        if (first % PacketPool.SLOTS_PER_SLAB != 0 || count <= 0 || first + (long) count > pool.capacity()) {
            throw new IllegalArgumentException("partition " + first + "+" + count + " of a pool of " + pool.capacity());
        }
        this.pool = pool;
        this.first = first;
        this.end = first + count;
        this.freeStack = new int[Math.min(count, PacketPool.SLOTS_PER_SLAB)];
        this.neverUsed = first;
    }

    /** Takes a free buffer of this partition, or returns {@link PacketPool#NO_PACKET} when all are in use. */
    public int allocate() {
        final int handle;
        if (freeCount > 0) {
            handle = freeStack[--freeCount];
        } else if (neverUsed < end && refusalsBeforeRetry == 0 && pool.ensureSlab(neverUsed)) {
            handle = neverUsed++;
            if (handle - first == freeStack.length) {
                // Room to give back every buffer handed out: a slab's more, once per slab the partition reaches.
                freeStack = java.util.Arrays.copyOf(freeStack, Math.min(end - first, freeStack.length + PacketPool.SLOTS_PER_SLAB));
            }
        } else {
            refusalsBeforeRetry = PacketPool.refused(neverUsed < end, refusalsBeforeRetry);
            return PacketPool.NO_PACKET;
        }
        pool.clearMetadata(handle);
        return handle;
    }

    /** Gives back a buffer this partition handed out. */
    public void free(final int handle) {
        freeStack[freeCount++] = handle;
    }

    /** The partition's first handle. */
    public int first() {
        return first;
    }

    /** How many handles it has. */
    public int size() {
        return end - first;
    }

    public boolean owns(final int handle) {
        return handle >= first && handle < end;
    }

    /** Buffers handed out and not yet given back. */
    public int inUse() {
        return neverUsed - first - freeCount;
    }
}
