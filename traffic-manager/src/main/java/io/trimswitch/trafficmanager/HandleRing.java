package io.trimswitch.trafficmanager;

import io.trimswitch.dataplane.packet.PacketPool;
import org.agrona.BitUtil;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A queue of packet handles between threads, with exactly {@code capacity} places and one consumer;
 * one producer thread, or several when {@code manyProducers} (the egress queues every pipeline feeds).
 *
 * <p>Handles sit in an {@code int} array, one slot each, stored as {@code handle + 1} so that 0 marks an
 * empty slot. A producer first reserves an index (a CAS only when there are several producers), then
 * publishes the handle into the slot with a release store; the consumer takes a slot once it is non-zero,
 * clears it and moves its position on. Reserving against the consumer's position makes the capacity
 * exact in packets, which is what a data queue of 16 packets means; one CAS per packet at most, where a
 * byte-sized ring buffer needs a second one to claim its bytes.
 */
public final class HandleRing implements HandleQueue {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int EMPTY = 0;

    private final int capacity;
    private final int mask;
    private final int[] slots;
    private final boolean manyProducers;
    /**
     * The positions, each on a cache line of its own so producers and the consumer do not evict each
     * other's: packets the consumer has taken (only it writes); slots the producers have reserved (every
     * packet ever accepted); and, for several producers, the limit they may reserve up to without
     * reading the consumer's position (the consumer's position as one of them last saw it, plus the
     * capacity).
     */
    private final AtomicLongArray positions = new AtomicLongArray(LIMIT + 2 * LINE_LONGS);
    private static final int LINE_LONGS = 8;
    private static final int CONSUMED = LINE_LONGS;
    private static final int RESERVED = 3 * LINE_LONGS;
    private static final int LIMIT = 5 * LINE_LONGS;
    /** One producer only: the consumer's position as last read, re-read only when the ring looks full. */
    private long consumedSeen;
    private final AtomicInteger maxDepth = new AtomicInteger();
    /**
     * Offers refused because the ring was full. Producers count them in cells of their own (a LongAdder), so that
     * an overloaded switch, when every producer is refused at once, does not also fight over one counter.
     */
    private final LongAdder rejected = new LongAdder();

    /** Receives handles drained in a batch. */
    @FunctionalInterface
    public interface HandleConsumer {
        void accept(int handle);
    }

    public HandleRing(final int capacity, final boolean manyProducers) {
        if (capacity <= 0 || capacity > 1 << 30) {
            throw new IllegalArgumentException("queue capacity must be 1.." + (1 << 30) + ", got " + capacity);
        }
        this.capacity = capacity;
        this.manyProducers = manyProducers;
        this.slots = new int[BitUtil.findNextPositivePowerOfTwo(capacity)];
        this.mask = slots.length - 1;
        positions.set(LIMIT, capacity);
    }

    /** A factory for the real-time traffic manager. */
    public static QueueFactory factory() {
        return HandleRing::new;
    }

    @Override
    public boolean offer(final int handle) {
        if (handle < 0) {
            throw new IllegalArgumentException("not a packet handle: " + handle);
        }
        final long index = manyProducers ? reserveShared() : reserveOwn();
        if (index < 0) {
            rejected.increment();
            return false;
        }
        SLOT.setRelease(slots, (int) index & mask, handle + 1);
        return true;
    }

    /** One producer: it alone moves {@code reserved}, so no CAS. Returns the index reserved, or -1 when full. */
    private long reserveOwn() {
        final long mine = positions.getPlain(RESERVED);
        if (mine - consumedSeen >= capacity) {
            consumedSeen = positions.getAcquire(CONSUMED);
            if (mine - consumedSeen >= capacity) {
                return -1;
            }
        }
        positions.setRelease(RESERVED, mine + 1);
        final long depth = mine + 1 - consumedSeen;
        if (depth > maxDepth.getPlain()) {
            // The cached consumer position may be old: count against the current one.
            consumedSeen = positions.getAcquire(CONSUMED);
            final int current = (int) (mine + 1 - consumedSeen);
            if (current > maxDepth.getPlain()) {
                // The one producer is the one writer of the depth it alone can raise: no CAS.
                maxDepth.setRelease(current);
            }
        }
        return mine;
    }

    /** Several producers: a CAS on {@code reserved}, below a limit read from the consumer only when reached. */
    private long reserveShared() {
        while (true) {
            final long seen = positions.get(RESERVED);
            long limit = positions.getAcquire(LIMIT);
            if (seen >= limit) {
                limit = positions.getAcquire(CONSUMED) + capacity;
                if (seen >= limit) {
                    return -1;
                }
                // Racy but safe: the consumer only moves forward, so any limit written is one that held.
                positions.setRelease(LIMIT, limit);
            }
            if (positions.compareAndSet(RESERVED, seen, seen + 1)) {
                // limit - capacity is a position the consumer has passed: this bounds the depth from above.
                if (seen + 1 - (limit - capacity) > maxDepth.getPlain()) {
                    raiseMaxDepth((int) (seen + 1 - positions.getAcquire(CONSUMED)));
                }
                return seen;
            }
        }
    }

    private void raiseMaxDepth(final int depth) {
        int seen = maxDepth.get();
        while (depth > seen && !maxDepth.compareAndSet(seen, depth)) {
            seen = maxDepth.get();
        }
    }

    @Override
    public int poll() {
        final long next = positions.getPlain(CONSUMED);
        final int slot = (int) next & mask;
        final int stored = (int) SLOT.getAcquire(slots, slot);
        if (stored == EMPTY) {
            return PacketPool.NO_PACKET;
        }
        SLOT.setOpaque(slots, slot, EMPTY);
        // Release: the slot is seen empty by any producer that sees the place free.
        positions.setRelease(CONSUMED, next + 1);
        return stored - 1;
    }

    /** The oldest handle, or {@link PacketPool#NO_PACKET} when empty or while its producer is still writing it. */
    @Override
    public int peek() {
        final int stored = (int) SLOT.getAcquire(slots, (int) positions.getPlain(CONSUMED) & mask);
        return stored == EMPTY ? PacketPool.NO_PACKET : stored - 1;
    }

    /** Hands up to {@code limit} handles to {@code consumer} in FIFO order; returns how many. */
    public int drain(final HandleConsumer consumer, final int limit) {
        final long first = positions.getPlain(CONSUMED);
        int count = 0;
        while (count < limit) {
            final int slot = (int) (first + count) & mask;
            final int stored = (int) SLOT.getAcquire(slots, slot);
            if (stored == EMPTY) {
                break;
            }
            SLOT.setOpaque(slots, slot, EMPTY);
            count++;
            consumer.accept(stored - 1);
        }
        if (count > 0) {
            positions.setRelease(CONSUMED, first + count);
        }
        return count;
    }

    /** Exact: packets accepted and not yet taken (a slot being written counts). */
    @Override
    public int size() {
        final long consumed = positions.get(CONSUMED);
        return (int) (positions.get(RESERVED) - consumed);
    }

    @Override
    public boolean isEmpty() {
        return positions.get(RESERVED) == positions.get(CONSUMED);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int maxDepth() {
        return maxDepth.get();
    }

    @Override
    public long enqueued() {
        return positions.get(RESERVED);
    }

    @Override
    public long rejected() {
        return rejected.sum();
    }

    /** Only while no thread uses the ring. */
    @Override
    public void reset() {
        java.util.Arrays.fill(slots, EMPTY);
        positions.set(RESERVED, 0);
        positions.set(CONSUMED, 0);
        positions.set(LIMIT, capacity);
        consumedSeen = 0;
        maxDepth.set(0);
        rejected.reset();
        VarHandle.fullFence();
    }
}
