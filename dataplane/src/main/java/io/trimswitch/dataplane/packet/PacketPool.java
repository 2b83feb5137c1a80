package io.trimswitch.dataplane.packet;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Off-heap packet buffers addressed by an {@code int} handle, so queues carry handles and never
 * copies of a frame. Frames live in fixed slots (at most {@link #SLOT_BYTES}, or the longest frame a run makes, or
 * only a frame's headers where its payload is known to be zeros) inside slabs of 1024 slots; a slab is allocated the first time the pool's working set reaches it, never per
 * packet. Per-packet metadata sits in parallel primitive arrays indexed by the same handle, which grow with the
 * working set in the same way: a pool sized for the worst case costs only what a run uses.
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

    private final int capacity;
    private final int slotBytes;
    private final int storedBytes;
    private final int slotStride;
    /** Bytes before each frame that belong to it: room for an offload header ahead of the frame. */
    private final int headroom;
    /** Where a frame starts within its slot: past a cache line of its own for the headroom, if there is one. */
    private final int frameStart;
    private final UnsafeBuffer[] slabs;
    /** Where slabs come from when they are mapped rather than zeroed direct buffers ({@link #withHeadroom}); else null. */
    private final UntouchedSlabs untouched;
    private int[] freeStack;
    private int freeCount;
    private int neverUsed;
    private boolean[] inUse;
    private int inUseCount;

    /** One row of {@link #META_STRIDE} ints per packet, so a packet's metadata shares one cache line. */
    private static final int META_STRIDE = 8;
    private static final int LENGTH = 0;
    private static final int INGRESS_PORT = 1;
    private static final int EGRESS_PORT = 2;
    private static final int FLOW = 3;
    private static final int SEQUENCE = 4;
    private static final int CLASSIFICATION = 5;
    private static final int TRIM_KIND = 6;
    private static final int RETURNED = 7;
    private int[] meta;
    private long[] arrivalPicos;
    private long[] queuedPicos;

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
     * cannot map leaves the pool exhausted ({@link #NO_PACKET}), as a full pool is.
     */
    public static PacketPool withHeadroom(final int capacity, final int maxFrameBytes, final int headroom) {
        if (headroom < 0 || headroom > CACHE_LINE) {
            throw new IllegalArgumentException("packet pool headroom of " + headroom + " bytes, outside 0.." + CACHE_LINE);
        }
        return new PacketPool(capacity, maxFrameBytes, maxFrameBytes, headroom, new UntouchedSlabs());
    }

    private PacketPool(final int capacity, final int maxFrameBytes, final int storedBytes, final int headroom) {
        this(capacity, maxFrameBytes, storedBytes, headroom, null);
    }

    private PacketPool(
        final int capacity, final int maxFrameBytes, final int storedBytes, final int headroom, final UntouchedSlabs untouched) {
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
        this.slabs = new UnsafeBuffer[(capacity + SLOTS_PER_SLAB - 1) >>> SLAB_SHIFT];
        this.untouched = untouched;
        final int initial = Math.min(capacity, SLOTS_PER_SLAB);
        this.freeStack = new int[initial];
        this.inUse = new boolean[initial];
        this.meta = new int[initial * META_STRIDE];
        this.arrivalPicos = new long[initial];
        this.queuedPicos = new long[initial];
    }

    /** Takes a free buffer, or returns {@link #NO_PACKET} when all {@link #capacity()} are in use. */
    public int allocate() {
        final int handle;
        if (freeCount > 0) {
            handle = freeStack[--freeCount];
        } else if (neverUsed < capacity && ensureSlab(neverUsed)) {
            handle = neverUsed++;
            if (handle == inUse.length) {
                reserveMetadata(Math.min(capacity, Math.max(handle * 2, handle + SLOTS_PER_SLAB)));
            }
        } else {
            return NO_PACKET;
        }
        inUse[handle] = true;
        inUseCount++;
        clearMetadata(handle);
        return handle;
    }

    /**
     * Metadata for handles below {@code handles}, kept as it is. Growth copies the arrays, so a pool shared by
     * threads ({@link PoolPartition}) reserves all its partitions' metadata when they are made, before any thread runs.
     */
    void reserveMetadata(final int handles) {
        if (handles <= inUse.length) {
            return;
        }
        freeStack = java.util.Arrays.copyOf(freeStack, handles);
        inUse = java.util.Arrays.copyOf(inUse, handles);
        meta = java.util.Arrays.copyOf(meta, handles * META_STRIDE);
        arrivalPicos = java.util.Arrays.copyOf(arrivalPicos, handles);
        queuedPicos = java.util.Arrays.copyOf(queuedPicos, handles);
    }

    /**
     * The slab that holds {@code handle}, made the first time a handle in it is used; false when it cannot be mapped
     * (the handle is then not to be handed out).
     */
    boolean ensureSlab(final int handle) {
        final int slab = handle >>> SLAB_SHIFT;
        if (slabs[slab] == null) {
            // Cache-line aligned (a mapping is page aligned), so a frame's headers start a line instead of straddling two.
            slabs[slab] = untouched != null ? untouched.slab(slotStride * SLOTS_PER_SLAB)
                : new UnsafeBuffer(BufferUtil.allocateDirectAligned(slotStride * SLOTS_PER_SLAB, CACHE_LINE));
        }
        return slabs[slab] != null;
    }

    /** A fresh packet's metadata: no ports, no flow, not trimmed. */
    void clearMetadata(final int handle) {
        final int row = handle * META_STRIDE;
        meta[row + LENGTH] = 0;
        meta[row + INGRESS_PORT] = -1;
        meta[row + EGRESS_PORT] = -1;
        meta[row + FLOW] = -1;
        meta[row + SEQUENCE] = 0;
        meta[row + CLASSIFICATION] = 0;
        meta[row + TRIM_KIND] = TrimKind.NONE;
        meta[row + RETURNED] = 0;
        arrivalPicos[handle] = 0;
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

    public int capacity() {
        return capacity;
    }

    /** The longest frame a buffer holds. */
    public int slotBytes() {
        return slotBytes;
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
        return (handle & SLOT_MASK) * slotStride + frameStart;
    }

    public int length(final int handle) {
        return meta[handle * META_STRIDE + LENGTH];
    }

    public void length(final int handle, final int bytes) {
        if (bytes < 0 || bytes > slotBytes) {
            throw new IllegalArgumentException("frame length " + bytes + " outside 0.." + slotBytes);
        }
        meta[handle * META_STRIDE + LENGTH] = bytes;
    }

    public int ingressPort(final int handle) {
        return meta[handle * META_STRIDE + INGRESS_PORT];
    }

    public void ingressPort(final int handle, final int port) {
        meta[handle * META_STRIDE + INGRESS_PORT] = port;
    }

    public int egressPort(final int handle) {
        return meta[handle * META_STRIDE + EGRESS_PORT];
    }

    public void egressPort(final int handle, final int port) {
        meta[handle * META_STRIDE + EGRESS_PORT] = port;
    }

    /** The workload flow the packet belongs to, or -1 when it came from outside a workload. */
    public int flow(final int handle) {
        return meta[handle * META_STRIDE + FLOW];
    }

    public void flow(final int handle, final int flowId) {
        meta[handle * META_STRIDE + FLOW] = flowId;
    }

    public int sequence(final int handle) {
        return meta[handle * META_STRIDE + SEQUENCE];
    }

    public void sequence(final int handle, final int seq) {
        meta[handle * META_STRIDE + SEQUENCE] = seq;
    }

    /** The {@link PacketClass} word the ingress parser computed. */
    public int classification(final int handle) {
        return meta[handle * META_STRIDE + CLASSIFICATION];
    }

    public void classification(final int handle, final int packetClass) {
        meta[handle * META_STRIDE + CLASSIFICATION] = packetClass;
    }

    /** When the packet's last bit reached the switch, in picoseconds. */
    public long arrivalPicos(final int handle) {
        return arrivalPicos[handle];
    }

    public void arrivalPicos(final int handle, final long time) {
        arrivalPicos[handle] = time;
    }

    /** When the packet last entered a queue of the traffic manager, in picoseconds. */
    public long queuedPicos(final int handle) {
        return queuedPicos[handle];
    }

    public void queuedPicos(final int handle, final long time) {
        queuedPicos[handle] = time;
    }

    public byte trimKind(final int handle) {
        return (byte) meta[handle * META_STRIDE + TRIM_KIND];
    }

    public void trimKind(final int handle, final byte kind) {
        meta[handle * META_STRIDE + TRIM_KIND] = kind;
    }

    public boolean returnedToSender(final int handle) {
        return meta[handle * META_STRIDE + RETURNED] != 0;
    }

    public void returnedToSender(final int handle, final boolean returned) {
        meta[handle * META_STRIDE + RETURNED] = returned ? 1 : 0;
    }
}
