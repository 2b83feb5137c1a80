package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * A bounded FIFO of packet handles with exact occupancy and its high-water mark. Single-threaded:
 * the virtual-time runtime and each real-time agent's private queues use it.
 *
 * <p>Its ring starts at {@link #FIRST_SLOTS} handles (or its capacity, if less) and doubles when a packet finds it
 * full below the capacity: a queue allocates at most log2(capacity / 8) times in its life, none once it has held its
 * deepest, and a network of thousands of deep header queues that stay shallow holds 32 bytes each, not its capacity.
 */
public final class PacketFifo implements HandleQueue {
    /** The ring a queue starts with, handles. */
    static final int FIRST_SLOTS = 8;

    /** How many packets it holds at most: its size, or less where a slowed link's queue shrinks with its rate. */
    private int capacity;
    /** The capacity it was made with: the most a {@link #limit} may give back. */
    private final int made;
    private int[] slots;
    private int mask;
    private long head;
    private long tail;
    private int maxDepth;
    private long enqueued;
    private long rejected;

    public PacketFifo(final int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("queue capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
        this.made = capacity;
        this.slots = new int[Math.min(FIRST_SLOTS, 1 << (32 - Integer.numberOfLeadingZeros(capacity - 1)))];
        this.mask = slots.length - 1;
    }

    /** The ring is full and the queue is not: twice the ring, each handle where the counters put it. */
    private void grow() {
        final int[] larger = new int[slots.length * 2];
        final int largerMask = larger.length - 1;
        for (long at = head; at < tail; at++) {
            larger[(int) (at & largerMask)] = slots[(int) (at & mask)];
        }
        slots = larger;
        mask = largerMask;
    }

    @Override
    public boolean offer(final int handle) {
        final int depth = (int) (tail - head);
        if (depth >= capacity) {
            rejected++;
            return false;
        }
        if (depth == slots.length) {
            grow();
        }
        slots[(int) (tail++ & mask)] = handle;
        enqueued++;
        if (depth + 1 > maxDepth) {
            maxDepth = depth + 1;
        }
        return true;
    }

    @Override
    public int poll() {
        if (head == tail) {
            return PacketPool.NO_PACKET;
        }
        return slots[(int) (head++ & mask)];
    }

    @Override
    public int peek() {
        return head == tail ? PacketPool.NO_PACKET : slots[(int) (head & mask)];
    }

    /** Takes the most recently queued packet back out (the ideal switch trims the tail). */
    public int removeTail() {
        if (head == tail) {
            return PacketPool.NO_PACKET;
        }
        enqueued--;
        return slots[(int) (--tail & mask)];
    }

    @Override
    public int size() {
        return (int) (tail - head);
    }

    @Override
    public boolean isEmpty() {
        return head == tail;
    }

    /** Holds at most {@code packets} from now on (1 up to the size it was made with): a slowed link's shallower queue. */
    public void limit(final int packets) {
        if (packets < 1 || packets > made) {
            throw new IllegalArgumentException("a queue limit must be 1.." + made + ", got " + packets);
        }
        this.capacity = packets;
    }

    public boolean isFull() {
        return tail - head >= capacity;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int maxDepth() {
        return maxDepth;
    }

    @Override
    public long enqueued() {
        return enqueued;
    }

    @Override
    public long rejected() {
        return rejected;
    }

    @Override
    public void reset() {
        head = 0;
        tail = 0;
        maxDepth = 0;
        enqueued = 0;
        rejected = 0;
    }
}
