package io.trimswitch.interfaces.afxdp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One of an AF_XDP socket's four rings, mapped from the kernel: a producer and a consumer index, flags, and a power of
 * two of descriptors. The other side's index is read with acquire (what it wrote before is visible), this side's is
 * written with release (what this side wrote before is visible to the kernel first).
 */
final class XdpRing {
    /** struct xdp_ring_offset: where the producer, consumer, descriptors and flags sit in the mapping. */
    static final int OFFSET_BYTES = 32;
    static final int NEED_WAKEUP = 1;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    final MemorySegment memory;
    final long bytes;
    private final long producer;
    private final long consumer;
    private final long flags;
    private final long descriptors;
    private final int mask;
    private final int descriptorBytes;

    /** {@code offsets}: the ring's struct xdp_ring_offset within XDP_MMAP_OFFSETS's answer. */
    XdpRing(final MemorySegment memory, final long bytes, final MemorySegment offsets, final int entries, final int descriptorBytes) {
        this.memory = memory;
        this.bytes = bytes;
        this.producer = offsets.get(ValueLayout.JAVA_LONG, 0);
        this.consumer = offsets.get(ValueLayout.JAVA_LONG, 8);
        this.descriptors = offsets.get(ValueLayout.JAVA_LONG, 16);
        this.flags = offsets.get(ValueLayout.JAVA_LONG, 24);
        this.mask = entries - 1;
        this.descriptorBytes = descriptorBytes;
    }

    /** Bytes to map for a ring of {@code entries} descriptors, which start where its {@code offsets} say. */
    static long mappedBytes(final MemorySegment offsets, final int entries, final int descriptorBytes) {
        return offsets.get(ValueLayout.JAVA_LONG, 16) + (long) entries * descriptorBytes;
    }

    int producer() {
        return (int) INT.getAcquire(memory, producer);
    }

    int consumer() {
        return (int) INT.getAcquire(memory, consumer);
    }

    void producer(final int value) {
        INT.setRelease(memory, producer, value);
    }

    void consumer(final int value) {
        INT.setRelease(memory, consumer, value);
    }

    /** Whether the kernel asks to be woken (a system call) to go on with this ring. */
    boolean needsWakeup() {
        return ((int) INT.getAcquire(memory, flags) & NEED_WAKEUP) != 0;
    }

    /** Where descriptor {@code index} (a running count, wrapped here) starts. */
    long slot(final int index) {
        return descriptors + (long) (index & mask) * descriptorBytes;
    }

    int entries() {
        return mask + 1;
    }
}
