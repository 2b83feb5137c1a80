package io.trimswitch.dataplane.counters;

import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

/**
 * A block of 64-bit counters off the heap, in the manner of Agrona's counters: each counter has one writer, which
 * adds with an ordered (release) store and never a CAS; any thread reads a whole, current value with an acquire load.
 * So the report, {@code stats} and the metrics endpoint read the same numbers while the switch runs, without locks
 * and without torn or stale reads. Blocks start on a cache line of their own, so that two writers' blocks never
 * share one.
 */
public final class CounterBlock {
    private static final int CACHE_LINE = 64;

    /** Holds the memory, which is freed when this block is collected. */
    private final ByteBuffer memory;
    // The counters are read and written at this address through Agrona's Unsafe calls, each index checked against
    // the block here: those calls are small enough for the quick compiler of a short run to inline, where a buffer's
    // checked accessors stay calls.
    private final long address;
    private final int count;

    public CounterBlock(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a counter block holds at least one counter, got " + count);
        }
        this.count = count;
        final int bytes = (count * Long.BYTES + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
        this.memory = BufferUtil.allocateDirectAligned(bytes, CACHE_LINE);
        this.address = BufferUtil.address(memory);
    }

    /** The writer's increment of counter {@code index}. */
    public void increment(final int index) {
        add(index, 1);
    }

    /** The writer's addition to counter {@code index}: a plain read of its own value, an ordered store of the sum. */
    public void add(final int index, final long delta) {
        // Not addLongRelease: that is an atomic read-modify-write, which a counter with one writer does not need.
        final long at = addressOf(index);
        UnsafeApi.putLongRelease(null, at, UnsafeApi.getLong(null, at) + delta);
    }

    /** Counter {@code index} as last stored by its writer, from any thread. */
    public long get(final int index) {
        return UnsafeApi.getLongAcquire(null, addressOf(index));
    }

    private long addressOf(final int index) {
        if (index < 0 || index >= count) {
            throw outOfRange(index);
        }
        return address + (long) index * Long.BYTES;
    }

    private IndexOutOfBoundsException outOfRange(final int index) {
        return new IndexOutOfBoundsException("counter " + index + " of a block of " + count);
    }

    public int count() {
        return count;
    }

    /** Every counter back to zero: only while the writer is not counting (between a warm-up and the measured run). */
    public void reset() {
        for (int index = 0; index < count; index++) {
            UnsafeApi.putLongRelease(null, addressOf(index), 0);
        }
    }
}
