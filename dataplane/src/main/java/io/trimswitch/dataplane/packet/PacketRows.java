package io.trimswitch.dataplane.packet;

import io.trimswitch.dataplane.util.UntouchedMemory;
import org.agrona.UnsafeApi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A {@link PacketPool}'s per-packet metadata: one row of a cache line per handle, in memory mapped for the whole
 * capacity of which only the rows handed out are resident ({@link UntouchedMemory}). The rows never move, so that
 * partitions owned by different threads each fill their own while others read theirs.
 */
final class PacketRows {
    /** One row of a cache line per packet: its ints, then its two times and its place in the arrival order. */
    private static final int ROW_SHIFT = 6;
    static final int LENGTH = 0;
    static final int INGRESS_PORT = 4;
    static final int EGRESS_PORT = 8;
    static final int FLOW = 12;
    static final int SEQUENCE = 16;
    static final int CLASSIFICATION = 20;
    static final int TRIM_KIND = 24;
    static final int RETURNED = 28;
    /** When the packet arrived, and when it was last queued. */
    static final int ARRIVAL = 32;
    static final int QUEUED = 40;
    /** Where the packet stands in the order its source made its packets: ties of arrival time go by it. */
    static final int ARRIVAL_ORDER = 48;

    private final int capacity;
    /** Where handle 0's row starts; the mapping is held by {@link #owner}. */
    private final long metadata;
    private final Arena owner = Arena.ofAuto();

    PacketRows(final int capacity) {
        final MemorySegment rows = UntouchedMemory.map((long) capacity << ROW_SHIFT, owner);
        if (rows == null) {
            throw new OutOfMemoryError("packet pool: cannot map the metadata of " + capacity + " packets");
        }
        this.capacity = capacity;
        this.metadata = rows.address();
    }

    /** A fresh packet's metadata: no ports, no flow, not trimmed. */
    void clear(final int handle) {
        final long row = row(handle);
        UnsafeApi.putInt(null, row + LENGTH, 0);
        UnsafeApi.putInt(null, row + INGRESS_PORT, -1);
        UnsafeApi.putInt(null, row + EGRESS_PORT, -1);
        UnsafeApi.putInt(null, row + FLOW, -1);
        UnsafeApi.putInt(null, row + SEQUENCE, 0);
        UnsafeApi.putInt(null, row + CLASSIFICATION, 0);
        UnsafeApi.putInt(null, row + TRIM_KIND, TrimKind.NONE);
        UnsafeApi.putInt(null, row + RETURNED, 0);
        UnsafeApi.putLong(null, row + ARRIVAL, 0);
    }

    /** The address of a packet's row, checked against the capacity as an array index would be. */
    private long row(final int handle) {
        return metadata + ((long) Objects.checkIndex(handle, capacity) << ROW_SHIFT);
    }

    int getInt(final int handle, final int field) {
        return UnsafeApi.getInt(null, row(handle) + field);
    }

    void putInt(final int handle, final int field, final int value) {
        UnsafeApi.putInt(null, row(handle) + field, value);
    }

    long getLong(final int handle, final int field) {
        return UnsafeApi.getLong(null, row(handle) + field);
    }

    void putLong(final int handle, final int field, final long value) {
        UnsafeApi.putLong(null, row(handle) + field, value);
    }
}
