package io.trimswitch.dataplane.packet;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap packet buffers addressed by an {@code int} handle, so queues carry handles and never
 * copies of a frame. Frames live in fixed slots (at most {@link #SLOT_BYTES}, or the longest frame a run makes, or
 * only a frame's headers where its payload is known to be zeros) inside slabs of 1024 slots; a slab is allocated the first time the pool's working set reaches it, never per
 * packet. Per-packet metadata sits in one row of a cache line per handle, in memory mapped for the whole capacity of
 * which only the rows handed out are resident ({@link PacketRows}): a pool sized for the worst case (every queue of
 * every port full) costs only what a run uses, and the rows never move, so that partitions owned by different threads
 * each fill their own while others read theirs.
 *
 * <p>A pool has one owner thread: the runtime that allocates and frees its packets; or, split into
 * {@link PoolPartition}s, one owner per partition.
 */
public final class PacketPool {
    public static final int SLOT_BYTES = 2048;
    /** The longest frame a workload makes: a jumbo frame, 9000 bytes of IP packet behind an Ethernet header and a VLAN tag. */
    public static final int JUMBO_FRAME_BYTES = 9000 + 18;
    /** The longest frame any pool holds: a 64 KB segmentation-offload frame of a Linux interface, with its headers. */
    public static final int MAX_SLOT_BYTES = 65_600;
    /** Handles per slab: a {@link PoolPartition} starts and ends on a slab's edge. */
    public static final int SLOTS_PER_SLAB = 1 << 10;
    public static final int NO_PACKET = -1;
    /**
     * Slots start an odd number of cache lines apart (33 for the longest frames, not 32): with a power-of-two stride
     * every frame's headers would fall into the same few cache sets and evict each other (the reason DPDK staggers
     * its mbufs).
     */
    private static final int CACHE_LINE = 64;
    private static final int SLAB_SHIFT = 10;
    private static final int SLOT_MASK = SLOTS_PER_SLAB - 1;

    /** Buffers of the first class, which {@link #allocate} hands out: handles 0 to capacity - 1. */
    private final int capacity;
    /** The second class, frames a kernel receives into itself ({@link UmemSlots}), past the first's slabs. */
    private final UmemSlots umem;
    private final int slotBytes;
    private final int storedBytes;
    private final int slotStride;
    /** Bytes before each frame that belong to it: room for an offload header ahead of the frame. */
    private final int headroom;
    /** Where a frame starts within its slot: past a cache line of its own for the headroom, if there is one. */
    private final int frameStart;
    private final UnsafeBuffer[] slabs;
    /** Where slabs come from when they are mapped rather than zeroed direct buffers ({@link #withHeadroom}); else null. */
    private final SlabSource untouched;
    private int[] freeStack;
    private int freeCount;
    private int neverUsed;
    private boolean[] inUse;
    private int inUseCount;
    /** Allocations still refused without a new try after the kernel could not map a slab (see {@link #SLAB_RETRY_AFTER}). */
    private int refusalsBeforeRetry;

    /** Per packet: its length, ports, flow, times and other metadata. */
    private final PacketRows rows;
    /**
     * After the kernel refused a slab, the allocations that need it are refused at once, as from a full pool, before
     * mmap is tried again: a system call per frame would slow the switch down just when memory is short.
     */
    static final int SLAB_RETRY_AFTER = 1 << 16;

    /**
     * The slot for whole frames of up to {@code longestFrame} bytes: {@link #SLOT_BYTES}, or longer up to a jumbo frame;
     * a frame longer than its slot is dropped as oversize when taken.
     */
    public static int slotFor(final int longestFrame) {
        return Math.max(SLOT_BYTES, Math.min(longestFrame, JUMBO_FRAME_BYTES));
    }

    /** A pool of {@code capacity} buffers of {@link #SLOT_BYTES}: a standard MTU's frames, with room to spare. */
    public PacketPool(final int capacity) {
        this(capacity, SLOT_BYTES);
    }

    /** A pool of {@code capacity} buffers for frames of at most {@code maxFrameBytes}. */
    public PacketPool(final int capacity, final int maxFrameBytes) {
        this(capacity, maxFrameBytes, maxFrameBytes);
    }

    /**
     * A pool of frames of up to {@code maxFrameBytes} of which only the first {@code storedBytes} are kept: for frames
     * whose payload nobody reads and that is all zeros, as the model's own hosts make them. The rest of such a frame
     * reads as zeros ({@link #copyFrame}).
     */
    public PacketPool(final int capacity, final int maxFrameBytes, final int storedBytes) {
        this(capacity, maxFrameBytes, storedBytes, 0);
    }

    /**
     * A pool of frames of up to {@code maxFrameBytes} (at most {@link #MAX_SLOT_BYTES}), each with {@code headroom} bytes
     * ahead of it at {@code offset(handle) - headroom}: for the live switch, whose interface ports keep a frame's offload
     * header there. Its slabs are mapped memory of which only the pages a frame has reached are resident
     * ({@link UntouchedSlabs}): a slot sized for the longest offload frame costs what its frames use. A slab the kernel
     * cannot map leaves the pool exhausted ({@link #NO_PACKET}), as a full pool is, for the next {@link #SLAB_RETRY_AFTER}
     * allocations that need it, before mmap is tried again.
     */
    public static PacketPool withHeadroom(final int capacity, final int maxFrameBytes, final int headroom) {
        return withHeadroom(capacity, maxFrameBytes, headroom, 0);
    }

    /**
     * {@link #withHeadroom} with a second class of {@code umemFrames} buffers (a whole number of slabs) after the first's
     * handles: 4 KB chunks a kernel receives into and sends from itself ({@link UmemShare}), each frame at most
     * {@link UmemShare#LONGEST_FRAME}. Only {@link PoolPartition}s over their handles hand them out.
     */
    public static PacketPool withHeadroom(final int capacity, final int maxFrameBytes, final int headroom, final int umemFrames) {
        return withHeadroom(capacity, maxFrameBytes, headroom, new UntouchedSlabs(), umemFrames);
    }

    /** {@link #withHeadroom} with its slabs from {@code slabs}. */
    static PacketPool withHeadroom(final int capacity, final int maxFrameBytes, final int headroom, final SlabSource slabs) {
        return withHeadroom(capacity, maxFrameBytes, headroom, slabs, 0);
    }

    private static PacketPool withHeadroom(final int capacity, final int maxFrameBytes, final int headroom, final SlabSource slabs, final int umemFrames) {
        if (headroom < 0 || headroom > CACHE_LINE) {
            throw new IllegalArgumentException("packet pool headroom of " + headroom + " bytes, outside 0.." + CACHE_LINE);
        }
        return new PacketPool(capacity, maxFrameBytes, maxFrameBytes, headroom, slabs, umemFrames);
    }

    /** Where a pool's slabs come from, when not from zeroed direct buffers. */
    interface SlabSource {
        /** A page-aligned slab of {@code bytes}, all zeros; null when there is no memory for it. */
        UnsafeBuffer slab(int bytes);
    }

    private PacketPool(final int capacity, final int maxFrameBytes, final int storedBytes, final int headroom) {
        this(capacity, maxFrameBytes, storedBytes, headroom, null, 0);
    }

    private PacketPool(final int capacity, final int maxFrameBytes, final int storedBytes, final int headroom, final SlabSource untouched,
        final int umemFrames) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("packet pool capacity must be positive, got " + capacity);
        }
        if (maxFrameBytes <= 0 || maxFrameBytes > MAX_SLOT_BYTES) {
            throw new IllegalArgumentException("packet pool frames of " + maxFrameBytes + " bytes, outside 1.." + MAX_SLOT_BYTES);
        }
        if (storedBytes <= 0 || storedBytes > maxFrameBytes) {
            throw new IllegalArgumentException("packet pool storing " + storedBytes + " bytes of frames of " + maxFrameBytes);
        }
        this.capacity = capacity;
        this.slotBytes = maxFrameBytes;
        this.storedBytes = storedBytes;
        this.headroom = headroom;
        // The headroom takes a line of its own, so that the frame itself still starts a cache line.
        this.frameStart = headroom > 0 ? CACHE_LINE : 0;
        this.slotStride = (((storedBytes + frameStart + CACHE_LINE - 1) / CACHE_LINE) | 1) * CACHE_LINE;
        final int firstSlabs = (capacity + SLOTS_PER_SLAB - 1) >>> SLAB_SHIFT;
        this.umem = UmemSlots.map(firstSlabs << SLAB_SHIFT, umemFrames);
        this.slabs = new UnsafeBuffer[firstSlabs + (umemFrames >>> SLAB_SHIFT)];
        umem.slabsInto(slabs);
        this.rows = new PacketRows(umemFrames == 0 ? capacity : umem.first + umemFrames);
        this.untouched = untouched;
        final int initial = Math.min(capacity, SLOTS_PER_SLAB);
        this.freeStack = new int[initial];
        this.inUse = new boolean[initial];
    }

    /** Takes a free buffer, or returns {@link #NO_PACKET} when all {@link #capacity()} are in use. */
    public int allocate() {
        final int handle;
        if (freeCount > 0) {
            handle = freeStack[--freeCount];
        } else if (neverUsed < capacity && refusalsBeforeRetry == 0 && ensureSlab(neverUsed)) {
            handle = neverUsed++;
            if (handle == inUse.length) {
                final int handles = Math.min(capacity, Math.max(handle * 2, handle + SLOTS_PER_SLAB));
                freeStack = java.util.Arrays.copyOf(freeStack, handles);
                inUse = java.util.Arrays.copyOf(inUse, handles);
            }
        } else {
            refusalsBeforeRetry = refused(neverUsed < capacity, refusalsBeforeRetry);
            return NO_PACKET;
        }
        inUse[handle] = true;
        inUseCount++;
        clearMetadata(handle);
        return handle;
    }

    /**
     * The countdown after a refused allocation: {@link #SLAB_RETRY_AFTER} when the kernel has just refused a slab
     * ({@code slabRefused}), one less while it runs down, and 0 (try again) once it has.
     */
    static int refused(final boolean slabRefused, final int countdown) {
        return countdown > 0 ? countdown - 1 : slabRefused ? SLAB_RETRY_AFTER : 0;
    }

    /**
     * The slab that holds {@code handle}, made the first time a handle in it is used, by the thread that hands it out
     * first; false when it cannot be mapped (the handle is then not to be handed out). Other threads see it through
     * whatever hands them the handle.
     */
    boolean ensureSlab(final int handle) {
        final int slab = handle >>> SLAB_SHIFT;
        if (slabs[slab] == null) {
            // Cache-line aligned (a mapping is page aligned), so a frame's headers start a line instead of straddling two.
            final UnsafeBuffer made = untouched != null ? untouched.slab(slotStride * SLOTS_PER_SLAB)
                : new UnsafeBuffer(BufferUtil.allocateDirectAligned(slotStride * SLOTS_PER_SLAB, CACHE_LINE));
            if (made == null) {
                return false;
            }
            slabs[slab] = made;
        }
        return true;
    }

    /** A fresh packet's metadata: no ports, no flow, not trimmed. */
    void clearMetadata(final int handle) {
        rows.clear(handle);
    }

    /** Gives a buffer back. Freeing twice is a bookkeeping bug and fails loudly. */
    public void free(final int handle) {
        if (!inUse[handle]) {
            throw new IllegalStateException("packet " + handle + " freed twice");
        }
        inUse[handle] = false;
        inUseCount--;
        freeStack[freeCount++] = handle;
    }

    /** Returns every buffer to the pool at once, keeping the slabs, for a fresh run. */
    public void reset() {
        java.util.Arrays.fill(inUse, false);
        inUseCount = 0;
        freeCount = 0;
        // Hand out slots lowest first again, exactly as a new pool would: runs after a reset stay bit-identical.
        neverUsed = 0;
    }

    /** How many handles there are: the first class's, then the second's ({@link #umemFrames}), if any. */
    public int capacity() {
        return umem.count == 0 ? capacity : umem.first + umem.count;
    }

    /** The longest frame a buffer of the first class holds. */
    public int slotBytes() {
        return slotBytes;
    }

    /** The longest frame buffer {@code handle} holds, whichever its class. */
    public int slotBytes(final int handle) {
        return umem.holds(handle) ? UmemSlots.LONGEST_FRAME : slotBytes;
    }

    /** The second class's first handle, a slab's edge; its buffers follow ({@link #withHeadroom(int, int, int, int)}). */
    public int umemFirst() {
        return umem.first;
    }

    /** How many buffers the second class has (0: none). */
    public int umemFrames() {
        return umem.count;
    }

    UmemSlots umem() {
        return umem;
    }

    /** Bytes ahead of each frame that belong to it (see {@link #withHeadroom}). */
    public int headroom() {
        return headroom;
    }

    /** How many of a frame's first bytes the buffer keeps; past them the frame is zeros. */
    public int storedBytes() {
        return storedBytes;
    }

    /** Copies frame {@code handle} whole into {@code target} at {@code at}, the bytes past those stored as zeros. */
    public void copyFrame(final int handle, final UnsafeBuffer target, final int at) {
        final int length = length(handle);
        final int stored = Math.min(length, storedBytes);
        target.putBytes(at, buffer(handle), offset(handle), stored);
        if (length > stored) {
            target.setMemory(at + stored, length - stored, (byte) 0);
        }
    }

    public int inUse() {
        return inUseCount;
    }

    public UnsafeBuffer buffer(final int handle) {
        return slabs[handle >>> SLAB_SHIFT];
    }

    public int offset(final int handle) {
        return handle < umem.first ? (handle & SLOT_MASK) * slotStride + frameStart : UmemSlots.offset(handle);
    }

    public int length(final int handle) {
        return rows.getInt(handle, PacketRows.LENGTH);
    }

    public void length(final int handle, final int bytes) {
        if (bytes < 0 || bytes > slotBytes(handle)) {
            throw new IllegalArgumentException("frame length " + bytes + " outside 0.." + slotBytes(handle));
        }
        rows.putInt(handle, PacketRows.LENGTH, bytes);
    }

    public int ingressPort(final int handle) {
        return rows.getInt(handle, PacketRows.INGRESS_PORT);
    }

    public void ingressPort(final int handle, final int port) {
        rows.putInt(handle, PacketRows.INGRESS_PORT, port);
    }

    public int egressPort(final int handle) {
        return rows.getInt(handle, PacketRows.EGRESS_PORT);
    }

    public void egressPort(final int handle, final int port) {
        rows.putInt(handle, PacketRows.EGRESS_PORT, port);
    }

    /** The workload flow the packet belongs to, or -1 when it came from outside a workload. */
    public int flow(final int handle) {
        return rows.getInt(handle, PacketRows.FLOW);
    }

    public void flow(final int handle, final int flowId) {
        rows.putInt(handle, PacketRows.FLOW, flowId);
    }

    public int sequence(final int handle) {
        return rows.getInt(handle, PacketRows.SEQUENCE);
    }

    public void sequence(final int handle, final int seq) {
        rows.putInt(handle, PacketRows.SEQUENCE, seq);
    }

    /** The {@link PacketClass} word the ingress parser computed. */
    public int classification(final int handle) {
        return rows.getInt(handle, PacketRows.CLASSIFICATION);
    }

    public void classification(final int handle, final int packetClass) {
        rows.putInt(handle, PacketRows.CLASSIFICATION, packetClass);
    }

    /** When the packet's last bit reached the switch, in picoseconds. */
    public long arrivalPicos(final int handle) {
        return rows.getLong(handle, PacketRows.ARRIVAL);
    }

    public void arrivalPicos(final int handle, final long time) {
        rows.putLong(handle, PacketRows.ARRIVAL, time);
    }

    /** When the packet last entered a queue of the traffic manager, in picoseconds. */
    public long queuedPicos(final int handle) {
        return rows.getLong(handle, PacketRows.QUEUED);
    }

    public void queuedPicos(final int handle, final long time) {
        rows.putLong(handle, PacketRows.QUEUED, time);
    }

    /**
     * The packet's place in its source's order (the n-th packet it made): packets that arrive at one instant are
     * taken in this order, which every clock and every shard agrees on.
     */
    public long arrivalOrder(final int handle) {
        return rows.getLong(handle, PacketRows.ARRIVAL_ORDER);
    }

    public void arrivalOrder(final int handle, final long order) {
        rows.putLong(handle, PacketRows.ARRIVAL_ORDER, order);
    }

    public byte trimKind(final int handle) {
        return (byte) rows.getInt(handle, PacketRows.TRIM_KIND);
    }

    public void trimKind(final int handle, final byte kind) {
        rows.putInt(handle, PacketRows.TRIM_KIND, kind);
    }

    public boolean returnedToSender(final int handle) {
        return rows.getInt(handle, PacketRows.RETURNED) != 0;
    }

    public void returnedToSender(final int handle, final boolean returned) {
        rows.putInt(handle, PacketRows.RETURNED, returned ? 1 : 0);
    }
}
