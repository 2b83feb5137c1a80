package io.trimswitch.dataplane.packet;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Off-heap packet buffers addressed by an {@code int} handle, so queues carry handles and never
 * copies of a frame. Frames live in fixed slots of {@link #SLOT_BYTES} inside 2 MiB slabs; a slab
 * is allocated the first time the pool's working set reaches it, never per packet. Per-packet
 * metadata sits in parallel primitive arrays indexed by the same handle.
 *
 * <p>A pool has one owner thread: the runtime that allocates and frees its packets.
 */
public final class PacketPool {
    public static final int SLOT_BYTES = 2048;
    public static final int NO_PACKET = -1;
    private static final int SLAB_SHIFT = 10;
    private static final int SLOTS_PER_SLAB = 1 << SLAB_SHIFT;
    private static final int SLOT_MASK = SLOTS_PER_SLAB - 1;
    private static final int SLOT_SHIFT = 11;

    private final int capacity;
    private final UnsafeBuffer[] slabs;
    private final int[] freeStack;
    private int freeCount;
    private int neverUsed;
    private final boolean[] inUse;
    private int inUseCount;

    private final int[] length;
    private final int[] ingressPort;
    private final int[] egressPort;
    private final int[] flow;
    private final int[] sequence;
    private final int[] classification;
    private final long[] arrivalPicos;
    private final byte[] trimKind;
    private final boolean[] returnedToSender;

    public PacketPool(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("packet pool capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
        this.slabs = new UnsafeBuffer[(capacity + SLOTS_PER_SLAB - 1) >>> SLAB_SHIFT];
        this.freeStack = new int[capacity];
        this.inUse = new boolean[capacity];
        this.length = new int[capacity];
        this.ingressPort = new int[capacity];
        this.egressPort = new int[capacity];
        this.flow = new int[capacity];
        this.sequence = new int[capacity];
        this.classification = new int[capacity];
        this.arrivalPicos = new long[capacity];
        this.trimKind = new byte[capacity];
        this.returnedToSender = new boolean[capacity];
    }

    /** Takes a free buffer, or returns {@link #NO_PACKET} when all {@link #capacity()} are in use. */
    public int allocate() {
        final int handle;
        if (freeCount > 0) {
            handle = freeStack[--freeCount];
        } else if (neverUsed < capacity) {
            handle = neverUsed++;
            final int slab = handle >>> SLAB_SHIFT;
            if (slabs[slab] == null) {
                slabs[slab] = new UnsafeBuffer(ByteBuffer.allocateDirect(SLOT_BYTES * SLOTS_PER_SLAB));
            }
        } else {
            return NO_PACKET;
        }
        inUse[handle] = true;
        inUseCount++;
        length[handle] = 0;
        ingressPort[handle] = -1;
        egressPort[handle] = -1;
        flow[handle] = -1;
        sequence[handle] = 0;
        classification[handle] = 0;
        arrivalPicos[handle] = 0;
        trimKind[handle] = TrimKind.NONE;
        returnedToSender[handle] = false;
        return handle;
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

    public int inUse() {
        return inUseCount;
    }

    public boolean isInUse(final int handle) {
        return inUse[handle];
    }

    public UnsafeBuffer buffer(final int handle) {
        return slabs[handle >>> SLAB_SHIFT];
    }

    public int offset(final int handle) {
        return (handle & SLOT_MASK) << SLOT_SHIFT;
    }

    public int length(final int handle) {
        return length[handle];
    }

    public void length(final int handle, final int bytes) {
        if (bytes < 0 || bytes > SLOT_BYTES) {
            throw new IllegalArgumentException("frame length " + bytes + " outside 0.." + SLOT_BYTES);
        }
        length[handle] = bytes;
    }

    public int ingressPort(final int handle) {
        return ingressPort[handle];
    }

    public void ingressPort(final int handle, final int port) {
        ingressPort[handle] = port;
    }

    public int egressPort(final int handle) {
        return egressPort[handle];
    }

    public void egressPort(final int handle, final int port) {
        egressPort[handle] = port;
    }

    /** The workload flow the packet belongs to, or -1 when it came from outside a workload. */
    public int flow(final int handle) {
        return flow[handle];
    }

    public void flow(final int handle, final int flowId) {
        flow[handle] = flowId;
    }

    public int sequence(final int handle) {
        return sequence[handle];
    }

    public void sequence(final int handle, final int seq) {
        sequence[handle] = seq;
    }

    /** The {@link PacketClass} word the ingress parser computed. */
    public int classification(final int handle) {
        return classification[handle];
    }

    public void classification(final int handle, final int packetClass) {
        classification[handle] = packetClass;
    }

    /** When the packet's last bit reached the switch, in picoseconds. */
    public long arrivalPicos(final int handle) {
        return arrivalPicos[handle];
    }

    public void arrivalPicos(final int handle, final long time) {
        arrivalPicos[handle] = time;
    }

    public byte trimKind(final int handle) {
        return trimKind[handle];
    }

    public void trimKind(final int handle, final byte kind) {
        trimKind[handle] = kind;
    }

    public boolean returnedToSender(final int handle) {
        return returnedToSender[handle];
    }

    public void returnedToSender(final int handle, final boolean returned) {
        returnedToSender[handle] = returned;
    }
}
