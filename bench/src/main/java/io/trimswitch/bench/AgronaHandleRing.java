package io.trimswitch.bench;

import io.trimswitch.trafficmanager.HandleRing.HandleConsumer;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The baseline for {@link io.trimswitch.trafficmanager.HandleRing}: the traffic manager's first ring, an Agrona ring
 * buffer (one-to-one, or many-to-one) carrying each handle as a four-byte message. Agrona rings are sized
 * in bytes, so a packet is counted in twice: a reservation against the consumed count (a CAS with several
 * producers) makes the capacity exact in packets, then the ring claims the record's bytes (a second CAS in
 * the many-to-one ring). Only what the hand-off benchmark uses: offer and drain.
 */
public final class AgronaHandleRing {
    private static final int MESSAGE_TYPE = 1;
    /** Record header plus the int payload, aligned: every record is the same size, so the ring never pads. */
    private static final int RECORD_BYTES = BitUtil.align(RecordDescriptor.HEADER_LENGTH + Integer.BYTES, RecordDescriptor.ALIGNMENT);

    private final int capacity;
    private final RingBuffer ring;
    private final boolean manyProducers;
    /**
     * The two positions, each on a cache line of its own so producers and the consumer do not evict each
     * other's: slots the producers have reserved (every packet ever accepted; a CAS only when there are
     * several), and packets the consumer has taken (only it writes).
     */
    private final AtomicLongArray positions = new AtomicLongArray(RESERVED + 2 * LINE_LONGS);
    private static final int LINE_LONGS = 8;
    private static final int CONSUMED = LINE_LONGS;
    private static final int RESERVED = 3 * LINE_LONGS;
    /** One producer only: the consumer's position as last read, re-read only when the ring looks full. */
    private long consumedSeen;
    private final AtomicInteger maxDepth = new AtomicInteger();
    private final AtomicLong rejected = new AtomicLong();
    private HandleConsumer target;
    private final MessageHandler toTarget = this::onMessage;

    public AgronaHandleRing(final int capacity, final boolean manyProducers) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("queue capacity must be positive, got " + capacity);
        }
        this.capacity = capacity;
        this.manyProducers = manyProducers;
        // One record more than the capacity: a one-to-one ring keeps a record's room free between tail and head.
        final int bytes = BitUtil.findNextPositivePowerOfTwo(Math.max(64, Math.multiplyExact(capacity + 1, RECORD_BYTES)));
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes + RingBufferDescriptor.TRAILER_LENGTH));
        this.ring = manyProducers ? new ManyToOneRingBuffer(buffer) : new OneToOneRingBuffer(buffer);
    }

    public boolean offer(final int handle) {
        long depth = manyProducers ? reserveShared() : reserveOwn();
        if (depth < 0) {
            rejected.incrementAndGet();
            return false;
        }
        if (depth + 1 > maxDepth.get()) {
            if (!manyProducers) {
                // The cached consumer position may be old: count against the current one.
                consumedSeen = positions.get(CONSUMED);
                depth = positions.getPlain(RESERVED) - 1 - consumedSeen;
            }
            raiseMaxDepth((int) depth + 1);
        }
        final int index = ring.tryClaim(MESSAGE_TYPE, Integer.BYTES);
        if (index < 0) {
            // The ring holds more than capacity records, so a reserved slot always fits.
            throw new IllegalStateException("ring full below its packet capacity " + capacity);
        }
        ring.buffer().putInt(index, handle);
        ring.commit(index);
        return true;
    }

    /** One producer: it alone moves {@code reserved}, so no CAS. Returns the depth before, or -1 when full. */
    private long reserveOwn() {
        final long mine = positions.getPlain(RESERVED);
        if (mine - consumedSeen >= capacity) {
            consumedSeen = positions.get(CONSUMED);
            if (mine - consumedSeen >= capacity) {
                return -1;
            }
        }
        positions.setRelease(RESERVED, mine + 1);
        return mine - consumedSeen;
    }

    private long reserveShared() {
        while (true) {
            final long seen = positions.get(RESERVED);
            final long depth = seen - positions.get(CONSUMED);
            if (depth >= capacity) {
                return -1;
            }
            if (positions.compareAndSet(RESERVED, seen, seen + 1)) {
                return depth;
            }
        }
    }

    private void raiseMaxDepth(final int depth) {
        int seen = maxDepth.get();
        while (depth > seen && !maxDepth.compareAndSet(seen, depth)) {
            seen = maxDepth.get();
        }
    }

    /** Hands up to {@code limit} handles to {@code consumer} in FIFO order; returns how many. */
    public int drain(final HandleConsumer consumer, final int limit) {
        target = consumer;
        final int count = ring.read(toTarget, limit);
        if (count > 0) {
            positions.setRelease(CONSUMED, positions.getPlain(CONSUMED) + count);
        }
        return count;
    }

    private void onMessage(final int type, final MutableDirectBuffer buffer, final int index, final int length) {
        target.accept(buffer.getInt(index));
    }
}
