package io.trimswitch.dataplane.ports;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * What a shard's ports received in one call, DPDK's rx burst: a descriptor per frame, its port and the packet buffer the
 * frame now sits in (its length in the pool), in arrival order. The shard owns it and hands it to each of its port kinds
 * in turn; a kind fills it, never past {@link #room()}, and the shard then meters what it holds. A descriptor whose
 * handle is {@link PacketPool#NO_PACKET} is a frame that found no free buffer: the shard counts it. A descriptor may carry
 * the host time at which the kernel received its frame ({@link #UNSTAMPED}: the kind cannot tell), so that a frame read
 * late still arrives when it came. One thread uses it.
 */
public final class Burst {
    /** Descriptors a burst holds: a few turns' worth of every port of a shard at their receive budgets. */
    public static final int CAPACITY = 1024;
    /** A frame whose kind cannot tell when the kernel received it: it arrives when the shard reads it. */
    public static final long UNSTAMPED = 0;

    private final int[] ports = new int[CAPACITY];
    private final int[] handles = new int[CAPACITY];
    private final long[] receivedNanos = new long[CAPACITY];
    private int size;

    /** Frame {@code handle} came in on {@code port}; NO_PACKET when it found no buffer. */
    public void add(final int port, final int handle) {
        add(port, handle, UNSTAMPED);
    }

    /** The same, received by the kernel at host time {@code nanos} (CLOCK_MONOTONIC, System.nanoTime's; {@link #UNSTAMPED}: unknown). */
    public void add(final int port, final int handle, final long nanos) {
        if (size == CAPACITY) {
            throw new IllegalStateException("a burst holds " + CAPACITY + " frames: its kind took more than its room");
        }
        ports[size] = port;
        handles[size] = handle;
        receivedNanos[size] = nanos;
        size++;
    }

    /** How many more descriptors it takes. */
    public int room() {
        return CAPACITY - size;
    }

    public int size() {
        return size;
    }

    public int port(final int index) {
        return ports[index];
    }

    public int handle(final int index) {
        return handles[index];
    }

    /** When the kernel received frame {@code index}, in host nanoseconds; {@link #UNSTAMPED}: unknown. */
    public long receivedNanos(final int index) {
        return receivedNanos[index];
    }

    /** Empty again, once the shard has taken every descriptor. */
    public void clear() {
        size = 0;
    }
}
