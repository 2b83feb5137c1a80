package io.trimswitch.dataplane.packet;

import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * One thread's share of the pool's second class ({@link PacketPool#withHeadroom(int, int, int, int)}), as a kernel that
 * receives into the buffers and sends from them sees it: one piece of memory of 4 KB chunks, a frame
 * {@link #FRAME_START} bytes into each, registered with the kernel as it is (an AF_XDP UMEM), so that a frame the kernel
 * wrote is a pool buffer with no copy. A chunk's place in the piece (what the kernel's descriptors carry) and its handle
 * are one sum apart. Buffers are taken only on the owning thread ({@link #allocate}); any thread gives them back
 * ({@link #release}).
 */
public final class UmemShare {
    public static final int CHUNK = UmemSlots.SLOT;
    /** XDP_PACKET_HEADROOM: where the kernel writes a frame into its chunk, and so where the pool keeps it. */
    public static final int FRAME_START = UmemSlots.FRAME_START;
    public static final int LONGEST_FRAME = UmemSlots.LONGEST_FRAME;
    private static final int CHUNK_SHIFT = 12;

    private final PacketPool pool;
    private final int first;
    private final int count;
    private final long base;
    private final IntSupplier allocate;
    private final IntConsumer release;

    /**
     * Handles {@code first} to {@code first + count - 1} of {@code pool}'s second class, taken by {@code allocate} on the
     * owner's thread and given back by {@code release} from any.
     */
    public UmemShare(final PacketPool pool, final int first, final int count, final IntSupplier allocate, final IntConsumer release) {
        final UmemSlots slots = pool.umem();
        if (count <= 0 || !slots.holds(first) || !slots.holds(first + count - 1)) {
            throw new IllegalArgumentException("UMEM share " + first + "+" + count + " outside the pool's " + slots.first + "+" + slots.count);
        }
        this.pool = pool;
        this.first = first;
        this.count = count;
        this.base = slots.address(first);
        this.allocate = allocate;
        this.release = release;
    }

    public PacketPool pool() {
        return pool;
    }

    /** How many chunks the piece has. */
    public int count() {
        return count;
    }

    /** Where the piece starts, page aligned. */
    public long address() {
        return base;
    }

    public long bytes() {
        return (long) count << CHUNK_SHIFT;
    }

    /** A free buffer of the share, on its owner's thread; {@link PacketPool#NO_PACKET} when none is left. */
    public int allocate() {
        return allocate.getAsInt();
    }

    /** From any thread: buffer {@code handle} of the share is free again. */
    public void release(final int handle) {
        release.accept(handle);
    }

    /** Where {@code handle}'s chunk starts in the piece. */
    public long chunk(final int handle) {
        return (long) (handle - first) << CHUNK_SHIFT;
    }

    /** The handle of the chunk at {@code place} bytes into the piece (a kernel descriptor's address). */
    public int handleAt(final long place) {
        return first + (int) (place >>> CHUNK_SHIFT);
    }

    /** The index among the share's chunks of {@code handle}, one of them. */
    public int index(final int handle) {
        return handle - first;
    }

    public boolean holds(final int handle) {
        return handle >= first && handle < first + count;
    }

    /** Whether {@code address}, a memory address, lies in the piece. */
    public boolean holdsAddress(final long address) {
        return address >= base && address < base + bytes();
    }
}
