package io.trimswitch.dataplane.util;

/**
 * A FIFO of timed entries, each one int or a pair of ints ({@link #ofPairs}), that grows by doubling: a delay line
 * for things that all wait the same time (packets in a recirculation loop, congestion notifications in flight, frames
 * on a host link), so arrival order is due order. Growth allocates only when the backlog reaches a new high.
 */
public final class TimedIntFifo {
    private long[] times;
    private int[] values;
    /** The second int of each entry; null when entries are single ints. */
    private int[] seconds;
    private int head;
    private int size;

    /** A FIFO of (time, int) entries. */
    public TimedIntFifo(final int initialCapacity) {
        this(initialCapacity, false);
    }

    private TimedIntFifo(final int initialCapacity, final boolean pairs) {
        final int capacity = Integer.highestOneBit(Math.max(2, initialCapacity - 1)) << 1;
        times = new long[capacity];
        values = new int[capacity];
        seconds = pairs ? new int[capacity] : null;
    }

    /** A FIFO of (time, int, int) entries: things described by two numbers (a packet descriptor on a host link). */
    public static TimedIntFifo ofPairs(final int initialCapacity) {
        return new TimedIntFifo(initialCapacity, true);
    }

    public void add(final long time, final int value) {
        append(time, value);
    }

    /** Adds a pair; only to a FIFO {@link #ofPairs of pairs}. */
    public void add(final long time, final int first, final int second) {
        // append may grow the arrays: index the new one.
        final int index = append(time, first);
        seconds[index] = second;
    }

    private int append(final long time, final int value) {
        if (size == times.length) {
            grow();
        }
        final int index = (head + size) & (times.length - 1);
        times[index] = time;
        values[index] = value;
        size++;
        return index;
    }

    /**
     * Adds in time order, after every entry of the same time: for things sent by several threads whose delays differ
     * (NOTIFYs from recirculation ports on other shards), which almost always come in order and so cost an append.
     * Single ints only.
     */
    public void addInTimeOrder(final long time, final int value) {
        append(time, value);
        final int mask = times.length - 1;
        for (int i = size - 1; i > 0; i--) {
            final int at = (head + i) & mask;
            final int before = (head + i - 1) & mask;
            if (times[before] <= time) {
                break;
            }
            times[at] = times[before];
            values[at] = values[before];
            times[before] = time;
            values[before] = value;
        }
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Due time of the oldest entry; only when not empty. */
    public long headTime() {
        return times[head];
    }

    /** Value of the oldest entry (the first of its pair); only when not empty. */
    public int headValue() {
        return values[head];
    }

    /** The first of the oldest entry's pair; only when not empty. */
    public int headFirst() {
        return values[head];
    }

    /** The second of the oldest entry's pair; only when not empty. */
    public int headSecond() {
        return seconds[head];
    }

    /** Removes the oldest entry and returns its value (the first of its pair). */
    public int removeHead() {
        final int value = values[head];
        head = (head + 1) & (times.length - 1);
        size--;
        return value;
    }

    public void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        final int mask = times.length - 1;
        times = unwrapped(times, mask);
        values = unwrapped(values, mask);
        if (seconds != null) {
            seconds = unwrapped(seconds, mask);
        }
        head = 0;
    }

    /** A ring of twice the length with its {@code size} entries from the head moved to the start. */
    private long[] unwrapped(final long[] ring, final int mask) {
        final long[] grown = new long[ring.length * 2];
        for (int i = 0; i < size; i++) {
            grown[i] = ring[(head + i) & mask];
        }
        return grown;
    }

    private int[] unwrapped(final int[] ring, final int mask) {
        final int[] grown = new int[ring.length * 2];
        for (int i = 0; i < size; i++) {
            grown[i] = ring[(head + i) & mask];
        }
        return grown;
    }
}
