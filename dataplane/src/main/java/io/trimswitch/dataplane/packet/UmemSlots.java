package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.util.UntouchedMemory;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The pool's second slot class: buffers a kernel can receive into and send from itself (an AF_XDP UMEM's frames, DPDK's
 * mbufs), each a 4 KB page-aligned chunk with the frame {@link #FRAME_START} bytes in, as the kernel puts it, and its
 * offload header in the headroom just ahead. Mapped in one piece, none of it resident until written or registered with the
 * kernel: a kernel that registers a range pins every page of it at once, so the class is sized for frames a receive ring
 * needs, not for the 64 KB offload frames of the other class.
 */
final class UmemSlots {
    /** The chunk of a frame: a page, as the kernel's aligned UMEM mode wants it. */
    static final int SLOT = 4096;
    /** XDP_PACKET_HEADROOM: where the kernel writes a frame into its chunk. */
    static final int FRAME_START = 256;
    /** The longest frame a chunk holds. */
    static final int LONGEST_FRAME = SLOT - FRAME_START;
    private static final int SLOT_SHIFT = 12;

    /** The first handle of the class: the other class's handles come first, a whole number of slabs. */
    final int first;
    final int count;
    private final MemorySegment memory;

    private UmemSlots(final int first, final int count, final MemorySegment memory) {
        this.first = first;
        this.count = count;
        this.memory = memory;
    }

    /** {@code count} slots (a whole number of slabs) from handle {@code first} on; none when {@code count} is 0. */
    static UmemSlots map(final int first, final int count) {
        if (count < 0 || count % PacketPool.SLOTS_PER_SLAB != 0 || first % PacketPool.SLOTS_PER_SLAB != 0) {
            throw new IllegalArgumentException("UMEM slots " + first + "+" + count + ": not whole slabs of " + PacketPool.SLOTS_PER_SLAB);
        }
        if (count == 0) {
            return new UmemSlots(first, 0, MemorySegment.NULL);
        }
        final MemorySegment memory = UntouchedMemory.map((long) count * SLOT, Arena.ofAuto());
        if (memory == null) {
            throw new IllegalStateException("packet pool: no memory for " + count + " UMEM frames");
        }
        return new UmemSlots(first, count, memory);
    }

    /** The slabs of the class, views of the one mapping, into {@code slabs} where its handles fall. */
    void slabsInto(final UnsafeBuffer[] slabs) {
        final int slabBytes = PacketPool.SLOTS_PER_SLAB * SLOT;
        for (int slab = 0; slab < count / PacketPool.SLOTS_PER_SLAB; slab++) {
            slabs[first / PacketPool.SLOTS_PER_SLAB + slab] = new UnsafeBuffer(memory.address() + (long) slab * slabBytes, slabBytes);
        }
    }

    /** Where a frame starts in its slab. */
    static int offset(final int handle) {
        return ((handle & (PacketPool.SLOTS_PER_SLAB - 1)) << SLOT_SHIFT) + FRAME_START;
    }

    /** The address of handle {@code handle}'s chunk. */
    long address(final int handle) {
        return memory.address() + ((long) (handle - first) << SLOT_SHIFT);
    }

    /** The handle whose chunk holds the byte {@code address}. */
    int handleAt(final long address) {
        return first + (int) ((address - memory.address()) >>> SLOT_SHIFT);
    }

    boolean holds(final int handle) {
        return handle >= first && handle < first + count;
    }
}
