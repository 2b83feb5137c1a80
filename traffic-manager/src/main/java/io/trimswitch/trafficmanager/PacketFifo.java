package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;

/**
 * A bounded FIFO of packet handles with exact occupancy and its high-water mark. Single-threaded:
 * the virtual-time runtime and each real-time agent's private queues use it.
 */
public final class PacketFifo implements HandleQueue {
    /** How many packets it holds at most: its size, or less where a slowed link's queue shrinks with its rate. */
    private int capacity;
    private final int[] slots;
    private final int mask;
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
        this.slots = new int[1 << (32 - Integer.numberOfLeadingZeros(capacity - 1))];
        this.mask = slots.length - 1;
    }

    @Override
    public boolean offer(final int handle) {
        final int depth = (int) (tail - head);
        if (depth >= capacity) {
            rejected++;
            return false;
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
        if (packets < 1 || packets > slots.length) {
            throw new IllegalArgumentException("a queue limit must be 1.." + slots.length + ", got " + packets);
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
