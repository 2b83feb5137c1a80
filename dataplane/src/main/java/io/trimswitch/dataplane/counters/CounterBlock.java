package io.trimswitch.dataplane.counters;

import org.agrona.UnsafeApi;

/**
 * One writer's counters in a {@link CounterRegistry}, by index: the writer adds with a plain read of its own value and
 * a release store, never a CAS; any thread (or another process mapping the registry's file) reads a whole, current
 * value with an acquire load. Each counter's address is resolved once, when the block is made, so counting allocates
 * nothing and looks nothing up.
 */
public final class CounterBlock {
    /** Keeps the registry's memory alive as long as this block counts into it. */
    private final CounterRegistry registry;
    // Read and written through Agrona's Unsafe calls, each index checked against the block here: those calls are small
    // enough for the quick compiler of a short run to inline, where a buffer's checked accessors stay calls.
    private final long[] addresses;
    /** The counters' names, in index order. */
    private final java.util.List<CounterName> names;
    /** Each name's first index, once asked for. */
    private java.util.Map<CounterName, Integer> indexByName;
    /**
     * Whether other threads read the counters: then each store is a release store. A packed registry's are read by their
     * writer alone, and plain stores do (the quick compiler makes a release store a full fence).
     */
    private final boolean shared;

    CounterBlock(final CounterRegistry registry, final long[] addresses, final java.util.List<CounterName> names) {
        this(registry, addresses, names, true);
    }

    CounterBlock(final CounterRegistry registry, final long[] addresses, final java.util.List<CounterName> names, final boolean shared) {
        this.registry = registry;
        this.addresses = addresses;
        this.names = java.util.List.copyOf(names);
        this.shared = shared;
    }

    /**
     * The index of the counter named {@code name}: found by its key once, by whoever counts with it, never on the way of
     * a packet.
     *
     * @throws IllegalArgumentException when the block has no such counter
     */
    public int indexOf(final CounterName name) {
        if (indexByName == null) {
            // Made at the first look-up: a port's block is looked up once per counter, a list search would be quadratic.
            indexByName = new java.util.HashMap<>(names.size() * 2);
            for (int index = names.size() - 1; index >= 0; index--) {
                indexByName.put(names.get(index), index);
            }
        }
        final Integer index = indexByName.get(name);
        if (index == null) {
            throw new IllegalArgumentException("no counter " + name + " in this block");
        }
        return index;
    }

    /**
     * Counter {@code index} counts at {@code address} from now on, starting from what it had counted: for
     * {@link CounterRegistry#show}, before its writer counts for the port (see there).
     */
    void moveTo(final int index, final long address) {
        final long counted = UnsafeApi.getLongAcquire(null, addresses[index]);
        UnsafeApi.putLongRelease(null, address, counted);
        addresses[index] = address;
    }

    /** The writer's increment of counter {@code index}. */
    public void increment(final int index) {
        add(index, 1);
    }

    /** The writer's addition to counter {@code index}: a plain read of its own value, a release store of the sum. */
    public void add(final int index, final long delta) {
        // Not an atomic add: a counter with one writer does not need the read-modify-write.
        final long at = addressOf(index);
        store(at, UnsafeApi.getLong(null, at) + delta);
    }

    /** The writer's setting of counter {@code index}: for a gauge, which one thread samples. */
    public void set(final int index, final long value) {
        store(addressOf(index), value);
    }

    private void store(final long at, final long value) {
        if (shared) {
            UnsafeApi.putLongRelease(null, at, value);
        } else {
            UnsafeApi.putLong(null, at, value);
        }
    }

    /**
     * Where counter 0 lies when the block's counters lie 8 bytes apart, are never moved and only their writer reads them
     * (a packed registry's): its writer may count at that address plus 8 times the index with plain loads and stores,
     * one cache line fewer per count than through the block. 0 for any other block.
     */
    public long packedBase() {
        if (shared) {
            return 0;
        }
        for (int index = 1; index < addresses.length; index++) {
            if (addresses[index] != addresses[0] + (long) index * Long.BYTES) {
                return 0;
            }
        }
        return addresses[0];
    }

    /** Counter {@code index} as last stored by its writer, from any thread. */
    public long get(final int index) {
        return UnsafeApi.getLongAcquire(null, addressOf(index));
    }

    private long addressOf(final int index) {
        if (index < 0 || index >= addresses.length) {
            throw new IndexOutOfBoundsException("counter " + index + " of a block of " + addresses.length);
        }
        return addresses[index];
    }

    public int count() {
        return addresses.length;
    }

    /** The registry the counters live in. */
    public CounterRegistry registry() {
        return registry;
    }

    /** Every counter back to zero: only while the writer is not counting (between a warm-up and the measured run). */
    public void reset() {
        for (int index = 0; index < addresses.length; index++) {
            set(index, 0);
        }
    }
}
